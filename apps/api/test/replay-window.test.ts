import { createRedis, waitForRedis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { bodyFor, msgId, nowS, post, sign, startTestApi, type TestApi } from './support/test-api.js';

/**
 * docs/service-rules.md §2: an exact replay is refused for as long as its timestamp is accepted. The
 * window is counted in whole seconds (|floor(now) - timestamp| <= tolerance), so a timestamp is
 * accepted for up to 2 x tolerance + 1 seconds.
 */
describe('replay refusal at the edge of the timestamp window', () => {
  let t: TestApi;
  before(async () => {
    // A one-second tolerance keeps the whole window short; the rate limit stays out of the way of the replays.
    t = await startTestApi({ TIMESTAMP_TOLERANCE_S: '1', RATE_LIMIT_PER_S: '100000' });
  });
  after(() => t.close());

  /** Resolves when the clock enters the next whole second. */
  const nextSecond = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));

  it('refuses every replay until the timestamp itself is out of range, never accepting the request twice', async () => {
    // Sent at the start of a second with the latest timestamp accepted, the request stays valid for the longest.
    await nextSecond();
    const body = sign(bodyFor('website_dialog', {}, { timestamp: nowS() + 1 }));
    const first = await post(t.url, body);
    expect(first.status, JSON.stringify(first.json)).to.equal(200);
    const answers: string[] = [];
    for (;;) {
      const again = await post(t.url, body);
      answers.push(`${again.status} ${again.json.error ?? ''}`);
      if (again.status !== 409) break;
    }
    expect(answers.at(-1)).to.equal('401 timestamp_out_of_range');
    expect(new Set(answers.slice(0, -1))).to.deep.equal(new Set(['409 replayed_request']));
  });
});

/**
 * docs/service-rules.md §2, §9: a request with a msg_id is answered idempotently instead of refused as a
 * replay, so its first answer must be kept for at least the timestamp window, whatever IDEMPOTENCY_TTL_S says.
 */
describe('idempotent answers kept for the timestamp window', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ TIMESTAMP_TOLERANCE_S: '600', IDEMPOTENCY_TTL_S: '60' });
  });
  after(() => t.close());

  it('keeps the first answer to a msg_id until its request can no longer be replayed, even with a shorter IDEMPOTENCY_TTL_S', async () => {
    const id = msgId('window');
    const answer = await post(t.url, sign(bodyFor('website_dialog', { msg_id: id })));
    expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
    const redis = createRedis(t.config.redis, 'request', { name: 'replay-window-test' });
    try {
      await waitForRedis(redis, 5000);
      const ttlMs = await redis.pttl(t.keys.idempotency('shop', 'website_dialog', id));
      // The request is accepted for up to 2 x 600 + 1 s; a replay after its answer expired would be processed again.
      expect(ttlMs).to.be.above((2 * 600 + 1) * 1000 - 10_000);
    } finally {
      redis.disconnect();
    }
  });
});
