import { createRedisKeys, createRequestRedis, runSteps, waitForRedis, type Redis } from '@dialog-relay/redis';
import { commandCalls, startRedisServer, uniquePrefix, type RedisServerHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createAdmission, type AdmitInput, type StoredAnswer } from '../src/index.js';

/**
 * A request whose idempotent answer is stored in admission's own script (auto_dialog's accept,
 * docs/design/lua-scripts.md "Composed scripts") claims its msg_id and answers it in one atomic
 * step on one Redis: no other request can see the claim in between, so the claim is not written
 * (a 'pending' value the same script overwrote) and the answer is not checked against it. Counted
 * on a private server (INFO commandstats counts the commands scripts run).
 */
describe('a msg_id claimed and answered in one script', () => {
  let server: RedisServerHandle;
  let redis: Redis;
  before(async () => {
    server = await startRedisServer();
    redis = createRequestRedis(server.url, { name: 'claim-answered' });
    await waitForRedis(redis, 5000);
  });
  after(async () => {
    redis.disconnect();
    await server.stop();
  });

  const keys = createRedisKeys(uniquePrefix('claim'));
  const admission = () => createAdmission({ redis, keys, replayTtlMs: 600_000, idempotencyTtlMs: 86_400_000, pendingTtlMs: 30_000 });
  const input = (msgId: string): AdmitInput => ({
    client: 'c',
    ratePerS: 1000,
    nowMs: 1_700_000_000_123,
    replayDigest: 'unused',
    idempotency: { client: 'c', eventType: 'auto_dialog', msgId },
  });
  const answer: StoredAnswer = { status: 202, request_id: 'req-1', data: { status: 'queued' } };
  const accept = (msgId: string) =>
    runSteps(redis, [admission().admitStep(input(msgId), true), admission().completeStep('c', input(msgId).idempotency, answer)]);
  const calls = async (): Promise<Record<string, number>> => {
    const all = commandCalls(await redis.info('commandstats'));
    return { get: all.get('get') ?? 0, set: all.get('set') ?? 0 };
  };

  it('writes the answer once and reads the msg_id once: no claim between them', async () => {
    await accept('warm');
    await redis.config('RESETSTAT');
    for (let i = 0; i < 10; i++) expect(await accept(`m-${i}`)).to.deep.equal(['admitted', 1]);
    expect(await calls()).to.deep.equal({ get: 10, set: 10 });
    const stored = keys.idempotency('c', 'auto_dialog', 'm-3');
    expect(JSON.parse((await redis.get(stored)) ?? 'null')).to.deep.equal(answer);
    expect(await redis.pttl(stored)).to.be.above(86_000_000);
  });

  it('answers a msg_id answered before from its stored answer, and claims one answered in a later script', async () => {
    await accept('again');
    expect(await runSteps(redis, [admission().admitStep(input('again'), true)])).to.deep.equal([['existing', JSON.stringify(answer)]]);

    // the answer in a script of its own (the synchronous scenarios): the claim is written and checked
    expect(await runSteps(redis, [admission().admitStep(input('later'))])).to.deep.equal(['admitted']);
    expect(await redis.get(keys.idempotency('c', 'auto_dialog', 'later'))).to.equal('pending');
    expect(await runSteps(redis, [admission().completeStep('c', input('later').idempotency, answer)])).to.deep.equal([1]);
  });
});
