import { listDeadLetters } from '@dialog-relay/replies';
import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { suiteSystem } from './support/suite-system.js';

describe('a turn job that fails for good (real worker process)', function () {
  const suite = suiteSystem({ workers: 1, env: { AUTO_REPLY_DEBOUNCE_MS: '1500', JOB_FAILURE_ATTEMPTS: '2' } });

  it('dead-letters the reply with reason failed and answers the next message of the conversation', async () => {
    const who = { from_user_id: 'failing-customer', to_user_id: 'bound-failing' };
    const first = await suite.system.send({ ...who, content: 'first question', msg_id: 'fail-m1' }, { send_url: suite.receiver.url });
    expect(first.json.data).to.include({ status: 'queued' });
    const conversationId = String(first.json.data!['conversation_id']);
    // A dependency that throws until told to stop: the conversation's context, which the worker reads
    // to produce the reply, turns into a value of the wrong type (WRONGTYPE on every read).
    const order = suite.system.keys.contextOrder(conversationId);
    const redis = suite.system.redis();
    await redis.multi().del(order).set(order, 'corrupt').exec();

    const deliveries = suite.system.deliveries();
    await waitUntil(async () => (await listDeadLetters(deliveries)).some((l) => l.record.conversation_id === conversationId), 20_000);
    const [letter] = (await listDeadLetters(deliveries)).filter((l) => l.record.conversation_id === conversationId);
    expect(letter!.record).to.deep.include({ dead_reason: 'failed', in_reply_to: ['fail-m1'], state: 'dead' });
    expect(letter!.record.dead_detail).to.match(/WRONGTYPE/);
    expect(suite.receiver.requests).to.deep.equal([]);

    await redis.del(order); // told to stop
    const second = await suite.system.send({ ...who, content: 'anyone there?', msg_id: 'fail-m2' }, { send_url: suite.receiver.url });
    expect(second.json.data).to.include({ status: 'queued' });
    const [reply] = await suite.receiver.waitFor(1);
    expect(reply!.body.in_reply_to).to.deep.equal(['fail-m2']);
  });
});
