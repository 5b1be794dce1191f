import { expect } from 'chai';
import { startRedisCluster, startRedisServer, waitUntil, type RedisClusterHandle, type RedisServerHandle } from '@dialog-relay/testkit';
import { Command, Redis as IoRedisClient, type Cluster, type Redis as IoRedis } from 'ioredis';
import { enforceCommandDeadlines } from '../src/command-deadlines.js';
import { createRedis, waitForRedis, type Redis } from '../src/index.js';

/** What ioredis's commandTimeout arms on a command: a timer of its own (Command#setTimeout). */
const ownTimerOf = (command: Command): unknown => (command as unknown as { _commandTimeoutTimer?: unknown })._commandTimeoutTimer;

/** The error a command settles with, or 'answered' with its answer. */
const outcomeOf = (pending: Promise<unknown>): Promise<string> =>
  pending.then(
    (answer) => `answered ${String(answer)}`,
    (error: unknown) => (error as Error).message,
  );

/**
 * A request connection (the API, the CLI) bounds every command: a server that stops answering turns
 * into an error (the API's 503) instead of a request that hangs. ioredis's commandTimeout armed and
 * cleared a timer for every command (1-2 µs of the API's CPU each); the bound is now kept by one
 * timer per connection (docs/design/performance-log.md, eighteenth session).
 */
describe('command deadlines (a request connection bounds every command)', function () {
  this.timeout(60_000);
  let server: RedisServerHandle;
  const opened: Redis[] = [];
  const open = async (commandTimeoutMs: number): Promise<IoRedis> => {
    const redis = createRedis({ target: { mode: 'single', url: server.url }, password: undefined, tls: false }, 'request', {
      name: 'test-deadlines',
      commandTimeoutMs,
    });
    redis.on('error', () => undefined);
    opened.push(redis);
    await waitForRedis(redis, 5000);
    return redis as IoRedis;
  };

  before(async () => {
    server = await startRedisServer();
  });
  afterEach(() => {
    server.resume();
    opened.splice(0).forEach((redis) => redis.disconnect());
  });
  after(async () => {
    await server.dispose();
  });

  it('arms no timer of its own for a command', async () => {
    const redis = await open(2000);
    const command = new Command('ping', [], { replyEncoding: 'utf8' });
    const answer = redis.sendCommand(command) as Promise<unknown>;
    expect(ownTimerOf(command)).to.equal(undefined);
    expect(await answer).to.equal('PONG');
  });

  it('fails a command the stalled server never answers with "Command timed out", not before its bound, and serves again once the server is back', async () => {
    const redis = await open(300);
    expect(await redis.set('deadline:k', 'v')).to.equal('OK');
    server.pause();
    const sent = performance.now();
    const outcomes = await Promise.all([outcomeOf(redis.get('deadline:k')), outcomeOf(redis.ping())]);
    const waited = performance.now() - sent;
    expect(outcomes).to.deep.equal(['Command timed out', 'Command timed out']);
    expect(waited, 'ms waited').to.be.at.least(300);
    server.resume();
    await waitUntil(async () => (await outcomeOf(redis.get('deadline:k'))) === 'answered v', 10_000);
  });

  it('leaves a command answered within its bound alone', async () => {
    const redis = await open(300);
    server.pause();
    const pending = outcomeOf(redis.ping());
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.resume();
    expect(await pending).to.equal('answered PONG');
  });

  it('leaves the bound to ioredis’s own timer on a connection that does not hold its commands as this ioredis does', () => {
    const redis = new IoRedisClient({ lazyConnect: true });
    opened.push(redis);
    (redis as unknown as { commandQueue: unknown[] }).commandQueue = [];
    enforceCommandDeadlines(redis, 1234);
    expect(redis.options.commandTimeout).to.equal(1234);
    const known = new IoRedisClient({ lazyConnect: true });
    opened.push(known);
    enforceCommandDeadlines(known, 1234);
    expect(known.options.commandTimeout).to.equal(undefined);
  });

  it('bounds a cluster node’s commands alike', async () => {
    let cluster: RedisClusterHandle | undefined;
    try {
      cluster = await startRedisCluster();
      const nodes = cluster.nodes.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) }));
      const redis = createRedis({ target: { mode: 'cluster', nodes }, password: undefined, tls: false }, 'request', {
        name: 'test-deadlines-cluster',
        commandTimeoutMs: 300,
      }) as Cluster;
      redis.on('error', () => undefined);
      opened.push(redis);
      await waitUntil(async () => (await outcomeOf(redis.set('deadline:c', 'v'))) === 'answered OK', 20_000);
      const command = new Command('get', ['deadline:c'], { replyEncoding: 'utf8' });
      const answer = redis.sendCommand(command) as Promise<unknown>;
      expect(ownTimerOf(command)).to.equal(undefined);
      expect(await answer).to.equal('v');
      cluster.servers.forEach((node) => node.pause());
      const outcome = await outcomeOf(redis.get('deadline:c'));
      cluster.servers.forEach((node) => node.resume());
      expect(outcome).to.equal('Command timed out');
    } finally {
      cluster?.servers.forEach((node) => node.resume());
      await cluster?.dispose();
    }
  });
});
