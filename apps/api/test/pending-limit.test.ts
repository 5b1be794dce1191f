import { createRedis, type Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { bodyFor, msgId, post, sign, startTestApi, type TestApi } from './support/test-api.js';

/**
 * docs/service-rules.md §3: a conversation holds at most PENDING_MESSAGES_MAX unanswered auto_dialog
 * messages; one more is refused with 429 pending_limit, and nothing of it is recorded or queued,
 * while everything accepted before stays (no worker runs here, so nothing is answered).
 */
describe("the cap on a conversation's waiting messages (PENDING_MESSAGES_MAX)", () => {
  let t: TestApi;
  let redis: Redis;
  before(async () => {
    t = await startTestApi({ PENDING_MESSAGES_MAX: '2' });
    redis = createRedis(t.config.redis, 'request', { name: 'pending-limit-test' });
  });
  after(async () => {
    redis.disconnect();
    await t.close();
  });

  it('refuses the message past the cap with 429 pending_limit and Retry-After, losing nothing accepted', async () => {
    const parties = { from_user_id: 'cust-cap', to_user_id: 'bound-cap' };
    const send = (id: string) =>
      post(t.url, sign(bodyFor('auto_dialog', { msg_id: id, ...parties }, { send_url: 'http://127.0.0.1:9/hook' })));
    const ids = [msgId('cap'), msgId('cap'), msgId('cap')];
    const first = await send(ids[0]!);
    expect(first.status, JSON.stringify(first.json)).to.equal(202);
    expect((await send(ids[1]!)).status).to.equal(202);
    const refused = await send(ids[2]!);
    expect(refused.status, JSON.stringify(refused.json)).to.equal(429);
    expect(refused.json.error).to.equal('pending_limit');
    expect(Number(refused.headers.get('retry-after'))).to.be.above(0);
    const conversationId = first.json.data!['conversation_id'] as string;
    expect(await redis.lrange(t.keys.contextOrder(conversationId), 0, -1)).to.deep.equal([ids[0], ids[1]]);
    const waiting = (await redis.lrange(t.keys.pendingReplies(conversationId), 0, -1)).map(
      (json) => (JSON.parse(json) as { message: { msg_id: string } }).message.msg_id,
    );
    expect(waiting).to.deep.equal([ids[0], ids[1]]);
    // The refused msg_id is free for a later retry; an accepted one is answered idempotently, as before.
    const again = await send(ids[1]!);
    expect(again.status).to.equal(202);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect((await send(ids[2]!)).json.error).to.equal('pending_limit');
  });
});
