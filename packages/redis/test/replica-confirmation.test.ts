import { expect } from 'chai';
import { startRedisServer, waitUntil, type RedisServerHandle } from '@dialog-relay/testkit';
import { Redis as SingleRedis } from 'ioredis';
import { createRedis, createReplicaConfirmation, isRedisUnavailableError, ReplicationLagError, type ReplicaConfirmation } from '../src/index.js';

/** WAIT behind its own connections (docs/scaling.md "Replicas before the 202"): every way it can fail is "Redis unavailable" (503), never a bug (500). */
describe('replica confirmation (WAIT)', function () {
  this.timeout(20_000);
  let master: RedisServerHandle;
  let other: RedisServerHandle;
  let confirmation: ReplicaConfirmation;
  before(async () => {
    [master, other] = await Promise.all([startRedisServer(), startRedisServer()]);
  });
  afterEach(() => confirmation?.close());
  after(async () => {
    await Promise.all([master?.dispose(), other?.dispose()]);
  });
  const confirming = (timeoutMs: number): ReplicaConfirmation => createReplicaConfirmation({
    open: (name) => {
      const connection = createRedis({ target: { mode: 'single', url: master.url }, password: undefined, tls: false }, 'request', { name, commandTimeoutMs: timeoutMs + 2000 });
      connection.on('error', () => undefined);
      return connection;
    },
    fenceKey: 'test:replica-confirmation:fence', replicas: 1, timeoutMs,
  });

  it('rejects with ReplicationLagError, an unavailable-Redis error, when no replica confirms in time', async () => {
    confirmation = confirming(100);
    const error = await confirmation.confirm().then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(ReplicationLagError);
    expect(isRedisUnavailableError(error)).to.equal(true);
  });

  it('counts a master turned replica while WAIT blocks (UNBLOCKED) as Redis unavailable', async () => {
    confirmation = confirming(8000);
    const probe = new SingleRedis(master.url);
    try {
      const pending = confirmation.confirm().then(() => undefined, (e: unknown) => e);
      await waitUntil(async () => /cmd=wait/.test(String(await probe.call('CLIENT', 'LIST'))), 5000);
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
    confirmation = createReplicaConfirmation({
      open: (name) => {
        const connection = createRedis({ target: { mode: 'single', url: dying.url }, password: undefined, tls: false }, 'request', { name, commandTimeoutMs: 10_000 });
        connection.on('error', () => undefined);
        return connection;
      },
      fenceKey: 'test:replica-confirmation:fence', replicas: 1, timeoutMs: 8000,
    });
    try {
      const pending = confirmation.confirm().then(() => undefined, (e: unknown) => e);
      await waitUntil(async () => /cmd=wait/.test(String(await probe.call('CLIENT', 'LIST'))), 5000);
      await dying.kill(); // kill -9 of the master, as in a failover test
      const error = await pending;
      expect(error, 'WAIT must not succeed').to.be.instanceOf(Error);
      expect(isRedisUnavailableError(error), String(error)).to.equal(true);
    } finally {
      probe.disconnect();
      await dying.dispose();
    }
  });
});
