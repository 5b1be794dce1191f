import { expect } from 'chai';
import type { Socket } from 'node:net';
import { startRedisCluster, startRedisServer, waitUntil, type RedisClusterHandle, type RedisServerHandle } from '@dialog-relay/testkit';
import { Redis as IoRedis, type Cluster } from 'ioredis';
import { createRedis, waitForRedis, type Redis } from '../src/index.js';

/** The socket methods that each make one write system call (libuv's stream writes). */
const WRITE_CALLS = ['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString', 'writeUcs2String'] as const;

/** Counts the write system calls `socket` makes from now on (by wrapping its handle's write methods). */
function countWrites(socket: Socket): { readonly calls: number } {
  const counter = { calls: 0 };
  const handle = (socket as unknown as { _handle: Record<string, (...args: unknown[]) => unknown> })._handle;
  for (const name of WRITE_CALLS) {
    const original = handle[name];
    if (typeof original !== 'function') continue;
    handle[name] = function (this: unknown, ...args: unknown[]) {
      counter.calls++;
      return original.apply(this, args);
    };
  }
  return counter;
}

const streamOf = (redis: IoRedis): Socket => (redis as unknown as { stream: Socket }).stream;

/** Runs `count` GETs of `keys` issued in one event-loop turn; their answers in order. */
const oneTurnOfGets = (redis: Redis, keys: readonly string[]): Promise<(string | null)[]> => Promise.all(keys.map((key) => redis.get(key)));

/**
 * ioredis writes each command at once, one system call a command; on loopback each write also runs
 * the receiving side of TCP, a fifth of the API's CPU under load (docs/design/performance-log.md,
 * fourteenth session). A request connection corks at the first write of an event-loop turn and
 * uncorks in its check phase: the commands of one turn leave in one write.
 */
describe('coalesced writes (one write system call per event-loop turn on a request connection)', function () {
  this.timeout(60_000);
  let server: RedisServerHandle;
  const opened: Redis[] = [];
  const config = (): { target: { mode: 'single'; url: string }; password: undefined; tls: false } => ({
    target: { mode: 'single', url: server.url },
    password: undefined,
    tls: false,
  });
  const open = async (role: 'request' | 'worker', extra: { coalesceWrites?: boolean } = {}): Promise<IoRedis> => {
    const redis = createRedis(config(), role, { name: 'test-coalesced', ...extra });
    opened.push(redis);
    await waitForRedis(redis, 5000);
    return redis as IoRedis;
  };
  const keys = Array.from({ length: 30 }, (_, i) => `coalesced:${i}`);

  before(async () => {
    server = await startRedisServer();
    const seed = new IoRedis(server.url);
    await seed.mset(keys.flatMap((key, i) => [key, `v${i}`]));
    seed.disconnect();
  });
  after(async () => {
    opened.forEach((redis) => redis.disconnect());
    await server.dispose();
  });

  it('sends the commands of one turn in one write, and answers each in order', async () => {
    const redis = await open('request');
    const writes = countWrites(streamOf(redis));
    const answers = await oneTurnOfGets(redis, keys);
    expect(answers).to.deep.equal(keys.map((_, i) => `v${i}`));
    expect(writes.calls).to.equal(1);
  });

  it('writes each command at once where coalescing is off (the control, and the worker role)', async () => {
    for (const redis of [await open('request', { coalesceWrites: false }), await open('worker')]) {
      const writes = countWrites(streamOf(redis));
      expect(await oneTurnOfGets(redis, keys)).to.have.length(keys.length);
      expect(writes.calls).to.equal(keys.length);
    }
  });

  it('sends the commands of separate turns in separate writes, without waiting for a timer', async () => {
    const redis = await open('request');
    const writes = countWrites(streamOf(redis));
    for (const key of keys.slice(0, 5)) await redis.get(key);
    expect(writes.calls).to.equal(5);
    // A command issued from a timer leaves in that loop iteration's check phase, before any other timer.
    const sent = await new Promise<number>((resolve) => {
      setTimeout(() => {
        void redis.get(keys[0]!);
        setImmediate(() => resolve(writes.calls));
      }, 1);
    });
    expect(sent).to.equal(6);
  });

  it('coalesces again on the socket of a reconnection', async () => {
    const redis = await open('worker', { coalesceWrites: true });
    const first = streamOf(redis);
    const killer = new IoRedis(server.url);
    await killer.client('KILL', 'ID', String(await redis.client('ID')));
    killer.disconnect();
    await waitUntil(() => streamOf(redis) !== first && redis.status === 'ready', 10_000);
    const writes = countWrites(streamOf(redis));
    expect(await oneTurnOfGets(redis, keys)).to.deep.equal(keys.map((_, i) => `v${i}`));
    expect(writes.calls).to.equal(1);
  });

  it('settles every command of a turn whose socket is destroyed before it was written', async () => {
    const redis = await open('request');
    const pending = keys.map((key) =>
      redis.get(key).then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    streamOf(redis).destroy();
    const outcomes = await Promise.race([Promise.all(pending), new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5000))]);
    expect(outcomes).to.not.equal('hung');
    expect(outcomes).to.have.length(keys.length);
    await waitForRedis(redis, 5000);
    expect(await redis.get(keys[1]!)).to.equal('v1');
  });

  describe('on a cluster', () => {
    let cluster: RedisClusterHandle;
    before(async () => {
      cluster = await startRedisCluster();
    });
    after(async () => {
      await cluster.dispose();
    });

    it("writes each master's share of a turn once, on every node's socket", async () => {
      const nodes = cluster.nodes.split(',').map((address) => {
        const [host, port] = address.split(':');
        return { host: host!, port: Number(port) };
      });
      const redis = createRedis({ target: { mode: 'cluster', nodes }, password: undefined, tls: false }, 'request', {
        name: 'test-coalesced-cluster',
      }) as Cluster;
      opened.push(redis);
      const spread = Array.from({ length: 30 }, (_, i) => `spread:${i}`);
      await waitUntil(
        async () =>
          await redis.set(spread[0]!, 'x').then(
            () => true,
            () => false,
          ),
        10_000,
      );
      await Promise.all(spread.map((key) => redis.set(key, key)));
      const masters = redis.nodes('master');
      expect(masters).to.have.length(3);
      const counters = masters.map((node) => countWrites(streamOf(node)));
      expect(await Promise.all(spread.map((key) => redis.get(key)))).to.deep.equal(spread);
      expect(counters.map((c) => c.calls)).to.deep.equal([1, 1, 1]);
    });
  });
});
