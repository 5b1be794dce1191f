import { expect } from 'chai';
import { suiteSystem } from './support/suite-system.js';

/**
 * docs/design/reply-protocol.md "Going on to the next turn": a job that went on to its conversation's
 * next turn and died there (SIGKILL, real worker processes) is run again by BullMQ once its lock runs
 * out, and that run finds the batch that names it as its carrier: the reply in flight goes again
 * under the same delivery id, and the turns after it follow, in order, nothing lost.
 */
describe('a worker SIGKILLed during a turn its job went on to', function () {
  this.timeout(60_000);
  const suite = suiteSystem({ workers: 1 });

  it('is resumed by the next run of the same job: the reply in flight again under its delivery id, then the rest, in order', async () => {
    const customer = { from_user_id: 'carried-crash', to_user_id: 'bound-crash' };
    let sent: () => void = () => undefined;
    const bothSent = new Promise<void>((resolve) => (sent = resolve));
    let reachedB: () => void = () => undefined;
    const bReached = new Promise<void>((resolve) => (reachedB = resolve));
    suite.receiver.respond(async (_request, index, res) => {
      if (index === 0) await bothSent; // a's reply waits until b and c wait behind it
      if (index === 1) return reachedB(); // b's reply, in the turn a's job went on to: never answered, the worker dies
      res.writeHead(200).end('ok');
    });

    let conversationId = '';
    for (const [msgId, content] of [
      ['crash-a', 'where is my order?'],
      ['crash-b', 'and the invoice?'],
      ['crash-c', 'thanks'],
    ] as const) {
      const answer = await suite.system.send({ ...customer, msg_id: `${msgId}-${Date.now()}`, content }, { send_url: suite.receiver.url });
      expect(answer.status).to.equal(202);
      conversationId = String(answer.json.data!['conversation_id']);
      if (msgId === 'crash-a') await suite.receiver.waitFor(1);
    }
    sent();
    await bReached;
    // b's turn (generation 1) is served by job 0, which went on to it: no job 1 was ever added
    expect(await suite.system.turnJobState(conversationId, 0)).to.equal('active');
    expect(await suite.system.turnJobState(conversationId, 1)).to.equal('unknown');
    suite.system.workers[0]!.child.kill('SIGKILL');
    suite.system.startWorker();

    const requests = await suite.receiver.waitFor(4, 30_000);
    const answered = requests.map((r) => r.body.in_reply_to.map((id) => id.split('-').slice(0, 2).join('-')));
    expect(answered).to.deep.equal([['crash-a'], ['crash-b'], ['crash-b'], ['crash-c']]);
    const ids = requests.map((r) => r.headers['webhook-id']);
    expect(ids[2]).to.equal(ids[1]);
    expect(new Set([ids[0], ids[1], ids[3]]).size).to.equal(3);
    // nothing more comes: c's turn was the last
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(suite.receiver.requests).to.have.length(4);
  });
});
