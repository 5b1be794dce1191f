import { expect } from 'chai';
import { answerAfter, type Hold, type Responder } from './support/receiver.js';
import { suiteSystem } from './support/suite-system.js';
import { waitUntil } from '@dialog-relay/testkit';

/** How long the slow receiver holds each request before it would answer 200: far past the stop's abort wait (under a second). */
const HOLD_MS = 20_000;

describe('stop_auto_reply while an attempt hangs on a slow receiver (two worker replicas)', function () {
  /** Per request (by index): whether the receiver's hold ended (it answered) and whether it saw the connection close first. */
  const holds: Hold[] = [];
  const holdEach: Responder = (_request, index, res) => {
    holds[index] = answerAfter(HOLD_MS, res);
  };
  // The attempt time-out (60 s) is longer than the hold: only an abort can end the attempt early.
  const suite = suiteSystem({ workers: 2, env: { DELIVERY_TIMEOUT_MS: '60000', WORKER_LOCK_MS: '70000' } }, holdEach);

  const who = { from_user_id: 'hanging-customer', to_user_id: 'bound-hanging' };
  const command = (content: string) => suite.system.command(who, content);
  type Delivery = { state: string; attempts: { error: string | null; status: number | null }[] };
  const latestDelivery = async (): Promise<Delivery | undefined> =>
    ((await command('auto_reply_status')).json.data!['deliveries'] as Delivery[])[0];

  it('answers while the receiver still holds the request, aborts the attempt (the receiver sees the connection closed) and records it cancelled; nothing is attempted after', async () => {
    const asked = await suite.system.send({ ...who, content: 'are you there?', msg_id: 'hang-1' }, { send_url: suite.receiver.url });
    const conversationId = String(asked.json.data!['conversation_id']);
    await suite.receiver.waitFor(1);

    const stop = await command('stop_auto_reply');

    // The answer came while the receiver still held the request: it did not wait for the attempt's end.
    expect(holds[0]!.ended).to.equal(false);
    expect(stop.status).to.equal(200);
    expect(stop.json.data).to.include({ auto_reply: 'stopped', cancelled: 1 });

    // The attempt was aborted: the receiver saw its connection closed before its hold ended.
    await waitUntil(() => holds[0]!.closedDuringHold, 10_000);
    expect(holds[0]!.ended).to.equal(false);
    expect(suite.receiver.aborted).to.have.length(1);

    // Recorded as cancelled, with the one attempt marked cancelled (no HTTP status: it never answered).
    await waitUntil(async () => ((await latestDelivery())?.attempts.length ?? 0) === 1, 10_000);
    const delivery = await latestDelivery();
    expect(delivery?.state).to.equal('cancelled');
    expect(delivery!.attempts[0]).to.include({ status: null });
    expect(delivery!.attempts[0]!.error).to.match(/^cancelled/);

    // The turn job is over, so no attempt can follow: the receiver got the one request only.
    await waitUntil(async () => (await suite.system.turnJobState(conversationId, 0)) === 'completed', 10_000);
    expect(suite.receiver.requests).to.have.length(1);
    expect((await latestDelivery())?.attempts).to.have.length(1);
  });
});
