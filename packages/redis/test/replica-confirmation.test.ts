import { expect } from 'chai';
import {
  startRedisReplicaPair,
  startRedisServer,
  waitUntil,
  type RedisReplicaPairHandle,
  type RedisServerHandle,
} from '@dialog-relay/testkit';
import { Redis as SingleRedis } from 'ioredis';
import {
  createRedis,
  createReplicaConfirmation,
  isRedisUnavailableError,
  MasterChangedError,
  ReplicationLagError,
  waitForRedis,
  type Redis,
  type ReplicaConfirmation,
} from '../src/index.js';

/** WAIT behind its own connections (docs/design/scaling.md "Replicas before the 202"): every way it can fail is "Redis unavailable" (503), never a bug (500). */
describe('replica confirmation (WAIT)', function () {
  this.timeout(20_000);
  let master: RedisServerHandle;
  let other: RedisServerHandle;
  let confirmation: ReplicaConfirmation;
  before(async () => {
    [master, other] = await Promise.all([startRedisServer(), startRedisServer()]);
  });
  const single = (url: string) => ({ target: { mode: 'single' as const, url }, password: undefined, tls: false });
  const writers: Redis[] = [];
  /** The connection a request would have written on (the confirmation only watches it here). */
  const opened = async (url: string): Promise<Redis> => {
    const connection = createRedis(single(url), 'request', { name: 'writer' });
    connection.on('error', () => undefined);
    writers.push(connection);
    await waitForRedis(connection, 5000);
    return connection;
  };
  afterEach(() => {
    confirmation?.close();
    for (const writer of writers.splice(0)) writer.disconnect();
  });
  after(async () => {
    await Promise.all([master?.dispose(), other?.dispose()]);
  });
  const fencingOn = (writer: Redis, url: string, options: { timeoutMs?: number; poolSize?: number } = {}): ReplicaConfirmation =>
    createReplicaConfirmation({
      writer,
      open: (name) => {
        const connection = createRedis(single(url), 'request', { name, commandTimeoutMs: (options.timeoutMs ?? 2000) + 2000 });
        connection.on('error', () => undefined);
        return connection;
      },
      fenceKey: 'test:replica-confirmation:fence',
      replicas: 1,
      timeoutMs: options.timeoutMs ?? 2000,
      ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    });
  const confirming = async (timeoutMs: number): Promise<ReplicaConfirmation> =>
    fencingOn(await opened(master.url), master.url, { timeoutMs });
  /** 'confirmed', or what the confirmation rejected with. */
  const settled = (confirmed: Promise<void>): Promise<unknown> =>
    confirmed.then(
      () => 'confirmed',
      (e: unknown) => e,
    );
  /** Resolves once a WAIT blocks on the server `probe` talks to. */
  const waitBlocks = (probe: SingleRedis): Promise<void> =>
    waitUntil(async () => /cmd=wait/.test(String(await probe.call('CLIENT', 'LIST'))), 5000);

  it('rejects with ReplicationLagError, an unavailable-Redis error, when no replica confirms in time', async () => {
    confirmation = await confirming(100);
    const error = await settled(confirmation.begin().confirm());
    expect(error).to.be.instanceOf(ReplicationLagError);
    expect(isRedisUnavailableError(error)).to.equal(true);
  });

  it('counts a master turned replica while WAIT blocks (UNBLOCKED) as Redis unavailable', async () => {
    confirmation = await confirming(8000);
    const probe = new SingleRedis(master.url);
    try {
      const pending = settled(confirmation.begin().confirm());
      await waitBlocks(probe);
      await probe.call('REPLICAOF', '127.0.0.1', String(other.port)); // what a failover does to an old master
      const error = await pending;
      expect(String(error)).to.match(/UNBLOCKED/);
      expect(isRedisUnavailableError(error)).to.equal(true);
    } finally {
      await probe.call('REPLICAOF', 'NO', 'ONE');
      probe.disconnect();
    }
  });

  it('counts a WAIT cut off by the master dying (the connection closes under it) as Redis unavailable', async () => {
    const dying = await startRedisServer();
    const probe = new SingleRedis(dying.url);
    confirmation = fencingOn(await opened(dying.url), dying.url, { timeoutMs: 8000 });
    try {
      const pending = settled(confirmation.begin().confirm());
      await waitBlocks(probe);
      await dying.kill(); // kill -9 of the master, as in a failover test
      const error = await pending;
      expect(error, 'WAIT must not succeed').to.be.instanceOf(Error);
      expect(isRedisUnavailableError(error), String(error)).to.equal(true);
    } finally {
      probe.disconnect();
      await dying.dispose();
    }
  });

  describe('the fence lands where the writes went (docs/design/scaling.md "Replicas before the 202")', () => {
    let pair: RedisReplicaPairHandle;
    before(async () => {
      pair = await startRedisReplicaPair();
    });
    after(async () => {
      await pair?.dispose();
    });
    it('confirms writes made on the master its fence runs on, once the replica holds them', async () => {
      const writer = await opened(pair.master.url);
      confirmation = fencingOn(writer, pair.master.url);
      const pending = confirmation.begin();
      await writer.set('test:replica-confirmation:written', 'yes');
      await pending.confirm();
    });

    it('refuses writes acknowledged by another master than the one its fence ran on (two masters after a second failover)', async () => {
      // `other` stands for the master the request wrote to, which has no replica and is about to be
      // demoted; the fence connection reached the master the sentinels name now, whose replica confirms.
      const writer = await opened(other.url);
      confirmation = fencingOn(writer, pair.master.url);
      const pending = confirmation.begin();
      await writer.set('test:replica-confirmation:written', 'yes');
      const error = await settled(pending.confirm());
      expect(error, 'a fence on another server proves nothing about the writes').to.be.instanceOf(MasterChangedError);
      expect(isRedisUnavailableError(error), String(error)).to.equal(true);
    });

    it('refuses writes when the writing connection reconnected since the request began (it may have written to two masters)', async () => {
      const writer = await opened(pair.master.url);
      confirmation = fencingOn(writer, pair.master.url);
      const pending = confirmation.begin();
      const probe = new SingleRedis(pair.master.url);
      try {
        const reconnected = new Promise((resolve) => writer.once('ready', resolve));
        await probe.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
        await reconnected;
        await writer.set('test:replica-confirmation:written', 'yes');
      } finally {
        probe.disconnect();
      }
      const error = await settled(pending.confirm());
      expect(error).to.be.instanceOf(MasterChangedError);
      expect(isRedisUnavailableError(error), String(error)).to.equal(true);
    });

    it('refuses a request that found no free fence connection within the wait instead of queueing for ever', async () => {
      confirmation = fencingOn(await opened(pair.master.url), pair.master.url, { timeoutMs: 300, poolSize: 1 });
      const probe = new SingleRedis(pair.master.url);
      try {
        await confirmation.begin().confirm(); // opens the pool's one connection
        await probe.call('CLIENT', 'PAUSE', '1500', 'WRITE'); // the first fence's INCR hangs for 1.5 s
        const first = settled(confirmation.begin().confirm());
        const second = settled(confirmation.begin().confirm());
        expect(await first).to.equal('confirmed');
        expect(await second, 'waited for the pool longer than the WAIT time-out').to.be.instanceOf(ReplicationLagError);
      } finally {
        await probe.call('CLIENT', 'UNPAUSE');
        probe.disconnect();
      }
    });
  });
});
