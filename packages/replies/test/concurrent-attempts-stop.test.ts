import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DONE } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { processRedelivery, processTurn, type AutoReplies } from './internals.js';
import { loopbackDeliverer, wireAborts, type AbortWiring } from './abort-wiring.js';
import { CONVERSATION, createHarness, outcome, SETTINGS, type Harness, testDeliveryId } from './harness.js';
import { testRedisForSuite } from './support/suite-hooks.js';

/**
 * A loopback receiver: answers 200 at once to the delivery ids in `answered`, holds every other
 * POST without answering; `closed(id)` resolves when the connection of a held POST closes.
 */
async function startReceiver(answered: Set<string>) {
  const held = new Map<string, Promise<void>>();
  const arrivals: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const id = String(req.headers['webhook-id']);
    req.resume();
    if (answered.has(id)) {
      req.on('end', () => res.writeHead(200).end('ok'));
      return;
    }
    held.set(id, new Promise<void>((resolve) => res.on('close', () => resolve())));
    for (const arrived of arrivals.splice(0)) arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    /** Resolves once a POST of `id` is being held. */
    async holding(id: string): Promise<void> {
      while (!held.has(id)) await new Promise<void>((resolve) => arrivals.push(resolve));
    },
    closed: (id: string): Promise<void> => held.get(id) ?? Promise.reject(new Error(`no held POST of ${id}`)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * "The attempt in flight is aborted (the receiver sees the connection closed) and recorded as
 * cancelled" (docs/service-rules.md §14) must hold for every attempt to the conversation, also
 * when an operator's replay of a dead letter is in flight beside the turn's own attempt (a replay
 * stands outside the turns: docs/design/reply-protocol.md, Retries, deadline, dead letters). Real Redis,
 * the real abort signals, the real Deliverer and a loopback receiver.
 */
describe('a stop while attempts of a replay and of the turn are in flight to one conversation', () => {
  let redis: Redis;
  let h: Harness;
  let wiring: AbortWiring;
  let replies: AutoReplies;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const answered = new Set<string>();
  const replayed = testDeliveryId(CONVERSATION, 0);
  const live = testDeliveryId(CONVERSATION, 1);

  testRedisForSuite('concurrent-attempts-test', (connection) => (redis = connection));

  beforeEach(async () => {
    answered.clear();
    receiver = await startReceiver(answered);
    h = createHarness(redis);
    wiring = await wireAborts(redis, h, 'concurrent-attempts');
    replies = wiring.replies;
    // The first turn's reply dies (410) through the scripted deliverer; everything after goes to the loopback receiver.
    await h.receive('a', { sendUrl: receiver.url });
    h.deliverer.answer(outcome.permanent(410));
    expect(await processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 })).to.deep.equal(DONE);
    expect((await h.deliveries.get(replayed))?.state).to.equal('dead');
    h.deps.deliverer = loopbackDeliverer([receiver.url], { userAgent: 'concurrent-attempts-test' });
    // The operator replays the dead letter (what replayDeadLetter does before queueing the job).
    expect(await h.deliveries.revive(replayed, h.clock.now + SETTINGS.replyMaxAgeMs)).to.equal(true);
    await h.receive('b', { sendUrl: receiver.url });
  });

  afterEach(async () => {
    wiring.close();
    await receiver.close();
  });

  const liveTurn = () => processTurn(h.deps, { conversationId: CONVERSATION, generation: 1 });
  const lastError = async (id: string): Promise<string | null | undefined> => (await h.deliveries.attempts(id)).at(-1)?.error;

  it("aborts the turn's attempt when the replay's attempt began after it and has already ended", async () => {
    answered.add(replayed);
    const turn = liveTurn();
    await receiver.holding(live);
    expect(await processRedelivery(h.deps, { deliveryId: replayed })).to.deep.equal(DONE);
    expect((await h.deliveries.get(replayed))?.state).to.equal('delivered');

    expect(await replies.stop(CONVERSATION)).to.equal(1);

    await receiver.closed(live);
    expect(await turn).to.deep.equal(DONE);
    expect((await h.deliveries.get(live))?.state).to.equal('cancelled');
    expect(await lastError(live)).to.match(/^cancelled/);
  });

  it('aborts both attempts when both are in flight', async () => {
    const turn = liveTurn();
    await receiver.holding(live);
    const redelivery = processRedelivery(h.deps, { deliveryId: replayed });
    await receiver.holding(replayed);

    await replies.stop(CONVERSATION);

    await Promise.all([receiver.closed(live), receiver.closed(replayed)]);
    expect(await turn).to.deep.equal(DONE);
    expect(await redelivery).to.deep.equal(DONE);
    for (const id of [live, replayed]) {
      expect((await h.deliveries.get(id))?.state, id).to.equal('cancelled');
      expect(await lastError(id), id).to.match(/^cancelled/);
    }
  });
});
