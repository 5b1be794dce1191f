import type { Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { KEEP_PER_CONVERSATION, processTurn } from './internals.js';
import { outcome, RECORD_TTL_S, testDeliveryId, type Harness } from './harness.js';
import { harnessPerTest } from './support/suite-hooks.js';

/**
 * What a delivered reply leaves behind and for how long (docs/service-rules.md §15): its attempt
 * log expires with its record from the first attempt on, and a conversation lists its latest
 * KEEP_PER_CONVERSATION delivery ids, newest first. SETTLE writes the trim and the log's TTL only
 * when they change something (docs/design/performance-log.md, ninth 2026-11-27 session), so both
 * sides of each are checked here.
 */
describe('delivered replies: the attempt log and the conversation list', () => {
  let redis: Redis;
  let h: Harness;
  harnessPerTest('delivery-retention-test', (harness, connection) => {
    h = harness;
    redis = connection;
  });

  it("gives a first attempt's log the record's TTL, and a retry does not take it away", async () => {
    await h.receive('r-1', { conversationId: 'c_ttl' });
    h.deliverer.answer(outcome.retry(503));
    await processTurn(h.deps, { conversationId: 'c_ttl', generation: 0 });
    const id = testDeliveryId('c_ttl', 0);
    expect(await h.deliveries.attempts(id)).to.have.length(1);
    const first = await redis.ttl(h.keys.deliveryAttempts(id));
    expect(first)
      .to.be.above(RECORD_TTL_S - 5)
      .and.at.most(RECORD_TTL_S);
    expect(await redis.ttl(h.keys.delivery(id))).to.be.above(RECORD_TTL_S - 5);

    // a second attempt on a log whose TTL has run down: set back to the record's
    await redis.expire(h.keys.deliveryAttempts(id), 10);
    h.deliverer.answer(outcome.delivered());
    await processTurn(h.deps, { conversationId: 'c_ttl', generation: 0 });
    expect((await h.deliveries.get(id))?.state).to.equal('delivered');
    expect(await h.deliveries.attempts(id)).to.have.length(2);
    expect(await redis.ttl(h.keys.deliveryAttempts(id))).to.be.above(RECORD_TTL_S - 5);
  });

  it(`lists a conversation's latest ${KEEP_PER_CONVERSATION} deliveries, newest first, and no more`, async () => {
    const conversationId = 'c_many';
    const turns = KEEP_PER_CONVERSATION + 3;
    for (let g = 0; g < turns; g++) {
      await h.receive(`many-${g}`, { conversationId });
      await processTurn(h.deps, { conversationId, generation: g });
    }
    expect(h.deliverer.requests).to.have.length(turns);
    const listed = await redis.lrange(h.keys.conversationDeliveries(conversationId), 0, -1);
    expect(listed).to.deep.equal(Array.from({ length: KEEP_PER_CONVERSATION }, (_, i) => testDeliveryId(conversationId, turns - 1 - i)));
    expect(await redis.ttl(h.keys.conversationDeliveries(conversationId))).to.be.above(RECORD_TTL_S - 5);
  });
});
