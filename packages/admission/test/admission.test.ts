import { expect } from 'chai';
import { createRedisKeys } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { Redis } from 'ioredis';
import { createAdmission, type AdmitInput } from '../src/index.js';

describe('admission', () => {
  let redis: Redis;
  before(() => {
    redis = new Redis(testRedisUrl());
  });
  after(() => redis.quit());

  const setup = (overrides: Partial<{ pendingTtlMs: number }> = {}) => {
    const keys = createRedisKeys(uniquePrefix('adm'));
    return {
      keys,
      admission: createAdmission({ redis, keys, replayTtlMs: 600_000, idempotencyTtlMs: 86_400_000, pendingTtlMs: 30_000, ...overrides }),
    };
  };
  const input = (over: Partial<AdmitInput> = {}): AdmitInput => ({
    client: 'c',
    ratePerS: 100,
    nowMs: 1_700_000_000_123,
    replayDigest: 'd1',
    idempotency: undefined,
    ...over,
  });

  it('refuses the exact same signed request the second time', async () => {
    const { admission } = setup();
    expect(await admission.admit(input())).to.deep.equal({ kind: 'admitted' });
    expect(await admission.admit(input())).to.deep.equal({ kind: 'replayed' });
    expect(await admission.admit(input({ replayDigest: 'd2' }))).to.deep.equal({ kind: 'admitted' });
    expect(await admission.admit(input({ client: 'other' }))).to.deep.equal({ kind: 'admitted' });
  });

  it('rate-limits a client past its per-second limit and starts afresh the next second', async () => {
    const { admission } = setup();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => admission.admit(input({ ratePerS: 3, replayDigest: `r${i}` }))));
    expect(results.filter((r) => r.kind === 'admitted')).to.have.length(3);
    expect(results.filter((r) => r.kind === 'rate_limited')).to.deep.equal([
      { kind: 'rate_limited', retryAfterS: 1 },
      { kind: 'rate_limited', retryAfterS: 1 },
    ]);
    expect(await admission.admit(input({ ratePerS: 3, replayDigest: 'next', nowMs: 1_700_000_001_000 }))).to.deep.equal({
      kind: 'admitted',
    });
  });

  it('answers in_progress while a msg_id is being processed, then returns the stored answer', async () => {
    const { admission } = setup();
    const idempotency = { client: 'c', eventType: 'website_dialog', msgId: 'm-1' };
    expect(await admission.admit(input({ idempotency }))).to.deep.equal({ kind: 'admitted' });
    expect(await admission.admit(input({ idempotency, replayDigest: 'other' }))).to.deep.equal({ kind: 'in_progress' });
    const answer = { status: 200, request_id: 'r-1', data: { content: [{ type: 'text', content: '你好' }] } };
    await admission.complete(idempotency, answer);
    expect(await admission.admit(input({ idempotency, replayDigest: 'third' }))).to.deep.equal({ kind: 'idempotent', answer });
  });

  it('keys idempotency by event type, so an assist_dialog may reuse an auto_dialog msg_id', async () => {
    const { admission } = setup();
    await admission.admit(input({ idempotency: { client: 'c', eventType: 'auto_dialog', msgId: 'm' } }));
    expect(await admission.admit(input({ idempotency: { client: 'c', eventType: 'assist_dialog', msgId: 'm' } }))).to.deep.equal({
      kind: 'admitted',
    });
  });

  it('frees a released claim so a retry is processed, and never overwrites an answer on release', async () => {
    const { admission, keys } = setup();
    const idempotency = { client: 'c', eventType: 'cmd_dialog', msgId: 'm-2' };
    await admission.admit(input({ idempotency }));
    await admission.release(idempotency);
    expect(await admission.admit(input({ idempotency }))).to.deep.equal({ kind: 'admitted' });
    await admission.complete(idempotency, { status: 200, request_id: 'r', data: {} });
    await admission.release(idempotency);
    expect(await redis.get(keys.idempotency('c', 'cmd_dialog', 'm-2'))).to.include('"request_id":"r"');
    expect(await redis.pttl(keys.idempotency('c', 'cmd_dialog', 'm-2'))).to.be.greaterThan(86_000_000);
  });

  it('lets a pending claim expire, so a crash cannot block a msg_id for a day', async () => {
    const { admission, keys } = setup({ pendingTtlMs: 5000 });
    const idempotency = { client: 'c', eventType: 'auto_dialog', msgId: 'm-3' };
    await admission.admit(input({ idempotency }));
    const ttl = await redis.pttl(keys.idempotency('c', 'auto_dialog', 'm-3'));
    expect(ttl).to.be.within(1, 5000);
  });
});
