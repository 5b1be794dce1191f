import { createRedisKeys, createRequestRedis, runSteps, waitForRedis, type Redis } from '@dialog-relay/redis';
import { commandCalls, startRedisServer, uniquePrefix, type RedisServerHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createAdmission, type Admission, type AdmitInput } from '../src/index.js';

/**
 * What admission runs inside Redis and answers (docs/design/performance-log.md, twenty-second session):
 * every request passes it. Each command a script runs costs Redis about 7,600 instructions with its
 * conversions, and each table in a script's reply about 4,400: a new msg_id is claimed by one SET
 * (read only when the SET finds it taken), and the usual outcomes are answered as a word. Counted
 * on a private server (INFO commandstats counts the commands scripts run).
 */
describe('what admission runs inside Redis', () => {
  let server: RedisServerHandle;
  let redis: Redis;
  before(async () => {
    server = await startRedisServer();
    redis = createRequestRedis(server.url, { name: 'admit-commands' });
    await waitForRedis(redis, 5000);
  });
  after(async () => {
    redis.disconnect();
    await server.stop();
  });

  const keys = createRedisKeys(uniquePrefix('admit'));
  let admission: Admission;
  before(() => {
    admission = createAdmission({ redis, keys, replayTtlMs: 600_000, idempotencyTtlMs: 86_400_000, pendingTtlMs: 30_000 });
  });
  const input = (msgId: string | undefined, ratePerS = 1000): AdmitInput => ({
    client: 'c',
    ratePerS,
    nowMs: 1_700_000_000_123,
    replayDigest: `digest-${msgId ?? 'none'}`,
    idempotency: msgId === undefined ? undefined : { client: 'c', eventType: 'website_dialog', msgId },
  });
  const scripted = async (): Promise<Record<string, number>> => {
    const all = commandCalls(await redis.info('commandstats'));
    return { incr: all.get('incr') ?? 0, get: all.get('get') ?? 0, set: all.get('set') ?? 0 };
  };

  it('claims a new msg_id with one SET, and reads a msg_id only when the SET finds it taken', async () => {
    await admission.admit(input('warm'));
    await redis.config('RESETSTAT');
    for (let i = 0; i < 10; i++) expect(await admission.admit(input(`m-${i}`))).to.deep.equal({ kind: 'admitted' });
    expect(await scripted()).to.deep.include({ get: 0, set: 10 });
    expect(await redis.get(keys.idempotency('c', 'website_dialog', 'm-4'))).to.equal('pending');
    expect(await redis.pttl(keys.idempotency('c', 'website_dialog', 'm-4'))).to.be.within(29_000, 30_000);

    // taken: still being processed, then answered
    await redis.config('RESETSTAT');
    expect(await admission.admit(input('m-4'))).to.deep.equal({ kind: 'in_progress' });
    expect(await scripted()).to.deep.include({ get: 1, set: 1 });
    const answer = { status: 200, request_id: 'req-4', data: { ok: true } };
    await admission.complete({ client: 'c', eventType: 'website_dialog', msgId: 'm-4' }, answer);
    expect(await admission.admit(input('m-4'))).to.deep.equal({ kind: 'idempotent', answer });
    expect(await redis.pttl(keys.idempotency('c', 'website_dialog', 'm-4'))).to.be.above(86_000_000);
  });

  it('answers admitted, rate_limited and replayed as a word, and an existing answer with its value', async () => {
    const part = async (value: AdmitInput) => (await runSteps(redis, [admission.admitStep(value)]))[0];
    expect(await part(input('w-1'))).to.equal('admitted');
    expect(await part(input(undefined))).to.equal('admitted');
    expect(await part(input(undefined))).to.equal('replayed');
    expect(await part(input('w-1'))).to.deep.equal(['existing', 'pending']);
    expect(await part(input('w-2', 0))).to.equal('rate_limited');
    expect(admission.admitted(await part(input(undefined)))).to.deep.equal({ kind: 'replayed' });
    expect(admission.admitted(await part(input('w-3', 0)))).to.deep.equal({ kind: 'rate_limited', retryAfterS: 1 });
  });
});
