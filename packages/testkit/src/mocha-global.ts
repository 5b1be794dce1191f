import { redisServerInstalled, startRedisServer, type RedisServerHandle } from './redis-server.js';

let server: RedisServerHandle | undefined;

/** Mocha global fixture: one private redis-server for the whole run, else REDIS_URL. */
export async function mochaGlobalSetup(): Promise<void> {
  if (redisServerInstalled()) {
    server = await startRedisServer();
    process.env['TEST_REDIS_URL'] = server.url;
    return;
  }
  if (!process.env['REDIS_URL']) {
    throw new Error('Tests need Redis: install redis-server (apt-get install -y redis-server) or set REDIS_URL.');
  }
}

export async function mochaGlobalTeardown(): Promise<void> {
  await server?.dispose();
}
