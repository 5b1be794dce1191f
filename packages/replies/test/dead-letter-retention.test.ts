import { DONE, type JobProducer } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDeliveryStore, listDeadLetters, processRedelivery, processTurn, type ReplayResult } from './internals.js';
import { DEAD_LETTER_TTL_S, outcome, RECORD_TTL_S, SETTINGS, testDeliveryId, type Harness } from './harness.js';
import { replayOn } from './support/replay.js';
import { harnessPerTest } from './support/suite-hooks.js';

/**
 * How long a dead letter is kept (DEAD_LETTER_TTL_S, docs/service-rules.md §7), and that the
 * dead-letter index never outlives its records: the count, the list and replay agree.
 */
describe('dead letters: retention and expiry', () => {
  let redis: Redis;
  let h: Harness;
  const queued: string[] = [];
  const jobs: Pick<JobProducer, 'add'> = {
    add: (...args) => {
      queued.push((args[1] as { deliveryId: string }).deliveryId);
      return Promise.resolve();
    },
  };
  harnessPerTest('dead-letter-retention-test', (harness, connection) => {
    h = harness;
    redis = connection;
  });
  beforeEach(() => {
    queued.length = 0;
  });

  const replay = (deliveryId: string): Promise<ReplayResult> => replayOn(h, jobs, deliveryId);
  /** The first reply of a conversation, dead-lettered by a permanent answer; returns its delivery id. */
  const deadLetter = async (conversationId: string): Promise<string> => {
    await h.receive(`${conversationId}-m1`, { conversationId });
    h.deliverer.answer(outcome.permanent(410));
    expect(await processTurn(h.deps, { conversationId, generation: 0 })).to.deep.equal(DONE);
    const id = testDeliveryId(conversationId, 0);
    expect((await h.deliveries.get(id))?.state).to.equal('dead');
    return id;
  };
  /** Makes a record and its attempt log expire now, as Redis would at the end of their TTL. */
  const expire = async (id: string): Promise<void> => {
    await redis.pexpire(h.keys.delivery(id), 1);
    await redis.pexpire(h.keys.deliveryAttempts(id), 1);
    await sleep(20);
    expect(await redis.exists(h.keys.delivery(id))).to.equal(0);
  };

  it('keeps a dead letter and its attempts for DEAD_LETTER_TTL_S, longer than a delivered record', async () => {
    const id = await deadLetter('c_retained');

    for (const key of [h.keys.delivery(id), h.keys.deliveryAttempts(id)]) {
      const ttl = await redis.ttl(key);
      expect(ttl, key).to.be.above(RECORD_TTL_S).and.at.most(DEAD_LETTER_TTL_S);
    }
  });

  it('neither counts nor lists a dead letter whose record has expired; pages stay full and replay agrees', async () => {
    const older = await deadLetter('c_older');
    h.clock.advance(1000);
    const newer = await deadLetter('c_newer');
    expect(await h.deliveries.countDead()).to.equal(2);

    await expire(newer);
    // the metrics' count drops expired entries at most once a minute (every scrape calls it)
    expect(await h.deliveries.countDead()).to.equal(2);
    h.clock.advance(60_000);

    expect(await h.deliveries.countDead()).to.equal(1);
    expect((await h.deliveries.listDead(0, 1)).map((r) => r.delivery_id)).to.deep.equal([older]);
    expect((await listDeadLetters(h.deliveries)).map((l) => l.record.delivery_id)).to.deep.equal([older]);
    expect(await redis.zrange(h.keys.deadLetters(h.keys.shardOfDelivery(newer)), 0, '-1')).to.not.include(newer);
    expect(await replay(newer)).to.equal('not_dead');
    expect(await replay(older)).to.equal('queued');
    expect(await h.deliveries.countDead()).to.equal(0);
    expect(queued).to.deep.equal([older]);
  });

  it('gives a replayed dead letter a fresh TTL, so it cannot expire in the middle of its redelivery', async () => {
    const id = await deadLetter('c_replayed');
    // Close to the end of its retention: one second left.
    await redis.pexpire(h.keys.delivery(id), 1000);
    await redis.pexpire(h.keys.deliveryAttempts(id), 1000);

    expect(await replay(id)).to.equal('queued');
    for (const key of [h.keys.delivery(id), h.keys.deliveryAttempts(id)]) {
      expect(await redis.pttl(key), key).to.be.above(SETTINGS.replyMaxAgeMs);
    }
    await sleep(1100); // the old TTL has run out
    h.deliverer.answer(outcome.retry(503));
    const decision = await processRedelivery(h.deps, { deliveryId: id });

    expect(decision.kind).to.equal('wait');
    expect(h.deliverer.requests.map((r) => r.deliveryId)).to.deep.equal([id, id]);
    expect((await h.deliveries.get(id))?.state).to.equal('retrying');
    expect((await h.deliveries.attempts(id)).map((a) => a.status)).to.deep.equal([410, 503]);
    // The redelivery's attempt does not cut the attempt log's retention back to a delivered record's.
    expect(await redis.ttl(h.keys.deliveryAttempts(id))).to.be.above(RECORD_TTL_S);
  });

  it('checks only index entries old enough to have expired (a dead letter lasts at least CONTEXT_TTL_S from its death)', async () => {
    const DAY_S = 86_400;
    const store = createDeliveryStore({ redis, keys: h.keys, ttlS: 10 * DAY_S, deadLetterTtlS: 30 * DAY_S, nowMs: () => h.clock.now });
    const older = await deadLetter('c_long_ago');
    h.clock.advance(9.5 * DAY_S * 1000);
    const newer = await deadLetter('c_lately');
    await expire(older);
    await expire(newer); // cannot happen for real before 10 days; here it shows which entries are looked at

    expect(await store.countDead()).to.equal(1);
    const index = await redis.zrange(h.keys.deadLetters(h.keys.shardOfDelivery(newer)), 0, '-1');
    expect(index).to.include(newer);
    expect(await redis.zscore(h.keys.deadLetters(h.keys.shardOfDelivery(older)), older)).to.equal(null);
  });
});
