import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promotedShare, runProcess, scavengesAfterMark, testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { Redis as IoRedis, ReplyError } from 'ioredis';
import { createRedis, leanCommandPromiseInstalled, leanScriptCommandInstalled, type Redis } from '../src/index.js';

const PACED = join(dirname(fileURLToPath(import.meta.url)), 'support', 'paced-commands.js');

/** The share of what the child allocated that its scavenges promoted, from --trace-gc-nvp lines (after its warm-up). */
async function promotedShareOf(env: Record<string, string>): Promise<{ share: number; scavenges: number }> {
  const run = await runProcess(process.execPath, ['--trace-gc-nvp', PACED], {
    env: { ...process.env, REDIS_URL: testRedisUrl(), KEY_PREFIX: uniquePrefix('paced'), SECONDS: '3', WARM_UP_SECONDS: '1.5', ...env },
  });
  expect(run.code, run.stderr).to.equal(0);
  const scavenges = scavengesAfterMark(run.stdout);
  return { share: promotedShare(scavenges), scavenges: scavenges.length };
}

/**
 * ioredis 6.0.0's Command#initPromise assigns an arrow straight to a property, which V8 allocates in
 * the old generation: every command's graph then survives scavenges and is promoted
 * (src/command-promise.ts). The service's connections build commands with the same method bound to
 * a local first.
 */
describe('the lean command promise (ioredis commands that die young)', () => {
  const opened: Redis[] = [];
  const open = (options: Record<string, unknown> = {}): Redis => {
    const redis = createRedis({ target: { mode: 'single', url: testRedisUrl() }, password: undefined, tls: false }, 'worker', {
      name: 'test-command-promise',
    });
    Object.assign(redis.options, options);
    opened.push(redis);
    return redis;
  };
  let silent: Server | undefined;
  const sockets: Socket[] = [];
  after(() => {
    opened.forEach((redis) => redis.disconnect());
    sockets.forEach((socket) => socket.destroy());
    silent?.close();
  });

  it('is installed by the connection factory for the reviewed ioredis', () => {
    open();
    expect(leanCommandPromiseInstalled()).to.equal(true);
    expect(leanScriptCommandInstalled()).to.equal(true);
  });

  it('keeps what a command answers: replies, transformed replies, reply errors and friendly stacks', async () => {
    const redis = open();
    const key = `${uniquePrefix('cmd')}h`;
    await redis.hset(key, { a: '1', b: '2' });
    expect(await redis.hgetall(key)).to.deep.equal({ a: '1', b: '2' }); // HGETALL's reply transformer
    expect(await redis.hget(key, 'a')).to.equal('1');
    const wrongType = await redis.incr(key).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(wrongType).to.be.instanceOf(ReplyError);
    expect(String((wrongType as Error).message)).to.match(/WRONGTYPE/);
    const friendly = open({ showFriendlyErrorStack: true });
    const withStack = await friendly.incr(key).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(withStack?.message).to.match(/WRONGTYPE/);
    expect(withStack?.stack).to.match(/command-promise\.test/); // the caller's frame, as ioredis's own method gives
    await redis.del(key);
  });

  it('still times a command out (commandTimeout) and answers a callback', async () => {
    silent = createServer((socket) => sockets.push(socket)); // accepts, never answers
    await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const stuck = new IoRedis({
      host: '127.0.0.1',
      port,
      enableReadyCheck: false,
      commandTimeout: 50,
      maxRetriesPerRequest: 0,
      protocol: 2,
    });
    stuck.on('error', () => undefined);
    opened.push(stuck);
    const timedOut = await stuck.ping().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(timedOut?.message).to.equal('Command timed out');
    const viaCallback = await new Promise<string | null | undefined>((resolve) => {
      void open().ping((error, answer) => resolve(error ? null : answer));
    });
    expect(viaCallback).to.equal('PONG');
  });

  it('promotes next to nothing of what paced commands allocate (ioredis as shipped: about a fifth)', async function () {
    this.timeout(30_000);
    const lean = await promotedShareOf({});
    const shipped = await promotedShareOf({ LEAN: '0' });
    expect(lean.scavenges, 'scavenges in the lean run').to.be.greaterThan(0);
    expect(shipped.share, 'the shipped method, the measurement working').to.be.greaterThan(0.08);
    expect(lean.share).to.be.lessThan(0.03);
  });

  /**
   * ioredis 6.0.0's Script gives each defined script a Command class whose toWritable assigns an
   * arrow straight to `this.reject`: the first way again, for every call of a defined script. BullMQ
   * defines all its scripts so (moveToActive, moveToFinished, addStandardJob …), on the worker's and
   * the API's connections (docs/design/performance-log.md, fourteenth session).
   */
  it('promotes next to nothing of what paced calls of a defined script allocate (ioredis as shipped: about an eighth)', async function () {
    this.timeout(30_000);
    const lean = await promotedShareOf({ SCRIPT: '1' });
    const shipped = await promotedShareOf({ SCRIPT: '1', LEAN: 'promise-only' });
    expect(lean.scavenges, 'scavenges in the lean run').to.be.greaterThan(0);
    expect(shipped.share, 'the shipped script command, the measurement working').to.be.greaterThan(0.06);
    expect(lean.share).to.be.lessThan(0.03);
  });

  it('runs a defined script as ioredis does: EVAL once per socket, EVALSHA after, again after SCRIPT FLUSH, reply errors kept', async () => {
    const redis = open();
    const key = `${uniquePrefix('script')}n`;
    redis.defineCommand('bumpBy', { numberOfKeys: 1, lua: "return redis.call('INCRBY', KEYS[1], ARGV[1])" });
    const bumpBy = (by: string): Promise<number> =>
      (redis as unknown as { bumpBy(k: string, by: string): Promise<number> }).bumpBy(key, by);
    const monitor = await (open() as IoRedis).monitor();
    const sent: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args[0] === 'eval' || args[0] === 'evalsha') sent.push(args[0]);
    });
    expect(await bumpBy('2')).to.equal(2);
    expect(await bumpBy('3')).to.equal(5);
    await redis.script('FLUSH');
    expect(await bumpBy('4')).to.equal(9); // NOSCRIPT: sent again as EVAL
    const notANumber = await bumpBy('x').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(notANumber).to.be.instanceOf(ReplyError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    monitor.disconnect();
    expect(sent.slice(0, 4)).to.deep.equal(['eval', 'evalsha', 'evalsha', 'eval']);
    await redis.del(key);
  });

  it("promotes next to nothing on the API's request connection either (auto-pipelined: about a fifth)", async function () {
    this.timeout(30_000);
    const request = await promotedShareOf({ ROLE: 'request' });
    const pipelined = await promotedShareOf({ ROLE: 'request', AUTO_PIPELINING: '1' });
    expect(pipelined.share, 'auto-pipelined, the measurement working').to.be.greaterThan(0.08);
    expect(request.share).to.be.lessThan(0.03);
  });
});
