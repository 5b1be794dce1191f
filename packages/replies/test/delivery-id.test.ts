import { buildOpenApiDocument } from '@dialog-relay/contracts';
import { createRedisKeys, type Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newDeliveryId, processTurn, type WorkerDeps } from './internals.js';
import { CONVERSATION, createHarness, outcome, type Harness } from './harness.js';
import { testRedisForSuite } from './support/suite-hooks.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const REAL_ID = /^dlv_[0-9a-f]{32}_s\d+$/;

describe('delivery ids (webhook-id)', () => {
  let redis: Redis;
  testRedisForSuite('delivery-id-test', (connection) => (redis = connection));

  /** The harness with production ids: take() gets newDeliveryId() as the worker gives it. */
  const withRealIds = (h: Harness): WorkerDeps => ({ ...h.deps, turns: h.turns, newDeliveryId: (c) => newDeliveryId(h.keys.shardOf(c)) });
  const deleteAll = async (keys: ReturnType<typeof createRedisKeys>): Promise<void> => {
    const found = await redis.keys(`${keys.prefix}*`);
    if (found.length > 0) await redis.del(...found);
  };

  it('are dlv_ + a UUIDv7 + their shard, time-ordered and distinct', () => {
    const ids = Array.from({ length: 1000 }, () => newDeliveryId(7));
    for (const id of ids) expect(id).to.match(/^dlv_[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}_s7$/);
    expect(createRedisKeys('p:', 16).shardOfDelivery(ids[0]!)).to.equal(7);
    expect(new Set(ids).size).to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal(ids);
  });

  it('stay distinct and in order across many refills of their random pool, thousands in one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newDeliveryId(2));
    expect(new Set(ids).size).to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal(ids);
    // the last 40 bits are random alone (the counter ends before them): they differ from one id to the next
    const tails = new Set(ids.map((id) => id.slice(-13, -3)));
    expect(tails.size).to.equal(ids.length);
  });

  it('never repeat after a Redis reset: the same conversation and generation get a new webhook-id', async () => {
    const h = createHarness(redis);
    const deps = withRealIds(h);
    await h.receive('a');
    await processTurn(deps, { conversationId: CONVERSATION, generation: 0 });
    await deleteAll(h.keys); // a Redis reset, a restore from an old backup, a new deployment
    await h.receive('a');
    await processTurn(deps, { conversationId: CONVERSATION, generation: 0 });

    const [first, second] = h.deliverer.requests.map((r) => r.deliveryId);
    expect(first).to.match(/^dlv_/);
    expect(second).to.match(/^dlv_/).and.not.equal(first);
  });

  it('stay the same across the retries and the crash recovery of one reply, and are stored with it', async () => {
    const h = createHarness(redis);
    const deps = withRealIds(h);
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503));
    const waiting = await processTurn(deps, { conversationId: CONVERSATION, generation: 0 });
    expect(waiting.kind).to.equal('wait');
    // A crash after the attempt: the job runs again from the start (take finds the stored batch).
    h.clock.advance(10_000);
    await processTurn(deps, { conversationId: CONVERSATION, generation: 0 });

    const ids = h.deliverer.requests.map((r) => r.deliveryId);
    expect(ids).to.have.length(2);
    expect(ids[1]).to.equal(ids[0]);
    const record = await h.deliveries.get(ids[0]!);
    expect(record).to.deep.include({ delivery_id: ids[0], state: 'delivered' });
    expect((JSON.parse(record!.payload) as { delivery_id: string }).delivery_id).to.equal(ids[0]);
  });

  it('are described as they are in docs/integrating.md, docs/design/reply-protocol.md and the OpenAPI examples', () => {
    expect(newDeliveryId(3)).to.match(REAL_ID);
    for (const file of [join('docs', 'integrating.md'), join('docs', 'design', 'reply-protocol.md')]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).to.include('`dlv_<32 hex>_s<shard>`');
      expect(text, file).not.to.match(/dlv_` \+ a UUIDv7[^,]*:/);
      // Every complete example id (not cut short with …) has the real format.
      for (const [id] of text.matchAll(/dlv_[0-9a-f][0-9a-f_s-]*(?![…0-9a-z])/g)) expect(id, `${file}: ${id}`).to.match(REAL_ID);
    }
    const openApi = JSON.stringify(buildOpenApiDocument({ version: 't', signExample: () => 'signature' }));
    const examples = [...openApi.matchAll(/"(?:delivery_id|msg_id)":"(dlv_[^"]*)"/g)].map((m) => m[1]!);
    expect(examples).to.not.deep.equal([]);
    for (const id of examples) expect(id).to.match(REAL_ID);
  });
});
