import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientSettings } from '@dialog-relay/config';
import type { Resolver } from '@dialog-relay/net-guard';
import { DONE } from '@dialog-relay/queue';
import type { Redis } from '@dialog-relay/redis';
import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { listDeadLetters, processTurn, type AutoReplies, type TurnStore } from './internals.js';
import { loopbackDeliverer, wireAborts, type AbortWiring } from './abort-wiring.js';
import { CLIENT, CONVERSATION, createHarness, type Harness, testDeliveryId } from './harness.js';
import { testRedisForSuite } from './support/suite-hooks.js';

/** A real HTTP server on loopback standing in for the integrator's send_url: counts the POSTs it got. */
async function startReceiver(): Promise<{ url: string; namedUrl: string; posts: () => number; close: () => Promise<void> }> {
  let posts = 0;
  const server = createServer((req, res) => {
    posts += 1;
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    /** The same receiver by a host name, which the deliverer resolves (only ever to loopback here). */
    namedUrl: `http://localhost:${port}/hook`,
    posts: () => posts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * "No delivery attempt starts after the stop's 200 answer" (docs/service-rules.md §8, §14) must hold
 * when the abort signal (Redis pub/sub) never reaches the worker: a message published while the
 * worker's subscriber is away is lost. Real Redis, the real signal registry and requester, the real
 * Deliverer and a loopback receiver.
 */
describe('a stop whose abort signal is lost', () => {
  let redis: Redis;
  let h: Harness;
  let workerSubscriber: Redis;
  let wiring: AbortWiring;
  let replies: AutoReplies;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  testRedisForSuite('lost-abort-test', (connection) => (redis = connection));
  afterEach(async () => {
    wiring.close();
    await receiver.close();
  });

  const id = testDeliveryId(CONVERSATION, 0);
  const turn = () => processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });
  const subscribers = async (): Promise<number> => ((await redis.call('PUBSUB', 'NUMSUB', h.keys.abortChannel)) as [string, number])[1];

  /** A worker (its signal registry subscribed) and an API side (its stop publishes aborts) over the harness's stores. */
  const setUp = async (
    options: { findClient?: (id: string) => Promise<ClientSettings | undefined>; resolve?: Resolver } = {},
  ): Promise<void> => {
    receiver = await startReceiver();
    h = createHarness(redis, options.findClient ? { findClient: options.findClient } : {});
    wiring = await wireAborts(redis, h, 'lost-abort');
    workerSubscriber = wiring.workerSubscriber;
    replies = wiring.replies;
    h.deps.deliverer = loopbackDeliverer([receiver.url, receiver.namedUrl], {
      userAgent: 'lost-abort-test',
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
  };

  /** The worker's subscriber goes away: an abort published now reaches no one. */
  const loseSignals = async (): Promise<void> => {
    workerSubscriber.disconnect();
    await waitUntil(async () => workerSubscriber.status === 'end' && (await subscribers()) === 0, 5000);
  };

  /**
   * Runs `during` right after the attempt's first stop check answered (between the check and the
   * POST). The first check is the take's (TAKE marks the attempt of the batch it takes in flight);
   * the check run again before the request is written is beginAttempt.
   */
  const afterStopCheck = (during: () => Promise<void>): { checks: () => number } => {
    const turns: TurnStore = h.deps.turns;
    let checks = 0;
    h.deps.turns = {
      ...turns,
      take: async (...args) => {
        const taken = await turns.take(...args);
        checks += 1;
        if (checks === 1) await during();
        return taken;
      },
      beginAttempt: async (...args) => {
        const go = await turns.beginAttempt(...args);
        checks += 1;
        return go;
      },
    };
    return { checks: () => checks };
  };

  const expectCancelledWithoutPost = async (): Promise<void> => {
    expect(receiver.posts()).to.equal(0);
    expect((await h.deliveries.get(id))?.state).to.equal('cancelled');
    expect(await listDeadLetters(h.deliveries)).to.deep.equal([]);
    expect((await h.contexts.read(CONVERSATION)).filter((m) => m.role === 'bot')).to.deep.equal([]);
  };

  it('posts nothing when the stop lands while the client is still being looked up', async () => {
    let stopped = 0;
    await setUp({
      findClient: async () => {
        await loseSignals();
        stopped = await replies.stop(CONVERSATION);
        return CLIENT;
      },
    });
    await h.receive('a', { sendUrl: receiver.url });

    expect(await turn()).to.deep.equal(DONE);

    expect(stopped).to.equal(1);
    await expectCancelledWithoutPost();
  });

  it("posts nothing when the stop lands between the stop check and the POST while the worker's subscriber is down", async () => {
    await setUp();
    let stopped = 0;
    afterStopCheck(async () => {
      await loseSignals();
      stopped = await replies.stop(CONVERSATION);
    });
    await h.receive('a', { sendUrl: receiver.url });

    expect(await turn()).to.deep.equal(DONE);

    expect(stopped).to.equal(1);
    await expectCancelledWithoutPost();
    const attempts = await h.deliveries.attempts(id);
    expect(attempts).to.have.length(1);
    expect(attempts[0]).to.include({ status: null });
    expect(attempts[0]!.error).to.match(/^cancelled/);
    expect(await h.attemptInFlight()).to.equal(false);
  });

  it("posts nothing when the stop lands while the connection to the receiver is being opened and the worker's subscriber is down", async () => {
    let stopped = 0;
    // The host name resolves (to loopback only) once the subscriber is gone and the stop has answered.
    await setUp({
      resolve: async () => {
        await loseSignals();
        stopped = await replies.stop(CONVERSATION);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    const { checks } = afterStopCheck(() => Promise.resolve());
    await h.receive('a', { sendUrl: receiver.namedUrl });

    expect(await turn()).to.deep.equal(DONE);

    expect(stopped).to.equal(1);
    await expectCancelledWithoutPost();
    const attempts = await h.deliveries.attempts(id);
    expect(attempts).to.have.length(1);
    expect(attempts[0]!.error).to.match(/^cancelled/);
    // the stop check made once the connection was open, not a signal, kept the request back
    expect(checks()).to.equal(2);
    expect(await h.attemptInFlight()).to.equal(false);
  });

  it("posts nothing when the stop lands between the stop check and the POST while the worker's subscriber was reconnecting", async () => {
    await setUp();
    const { checks } = afterStopCheck(async () => {
      await loseSignals();
      await replies.stop(CONVERSATION);
      // Subscribed again before the attempt goes on: the abort published meanwhile is still lost.
      await workerSubscriber.connect();
      await waitUntil(async () => (await subscribers()) === 1, 5000);
    });
    await h.receive('a', { sendUrl: receiver.url });

    expect(await turn()).to.deep.equal(DONE);

    await expectCancelledWithoutPost();
    // the second stop check, not a signal, kept the POST back
    expect(checks()).to.equal(2);
  });

  it('aborts before the POST when the stop lands between the stop check and the POST and its abort is heard', async () => {
    await setUp();
    let stopped = 0;
    const { checks } = afterStopCheck(async () => {
      stopped = await replies.stop(CONVERSATION);
    });
    await h.receive('a', { sendUrl: receiver.url });

    expect(await turn()).to.deep.equal(DONE);

    expect(stopped).to.equal(1);
    await expectCancelledWithoutPost();
    // the abort signal, not a second stop check, kept the POST back
    expect(checks()).to.equal(1);
  });

  it('delivers with one stop check when no stop comes and the abort signals were heard throughout', async () => {
    await setUp();
    const { checks } = afterStopCheck(() => Promise.resolve());
    await h.receive('a', { sendUrl: receiver.url });

    expect(await turn()).to.deep.equal(DONE);

    expect(receiver.posts()).to.equal(1);
    expect((await h.deliveries.get(id))?.state).to.equal('delivered');
    expect(checks()).to.equal(1);
  });

  it("delivers, checking the stop again before the POST, when the worker's subscriber reconnected since the attempt registered", async () => {
    await setUp();
    const { checks } = afterStopCheck(async () => {
      await loseSignals();
      await workerSubscriber.connect();
      await waitUntil(async () => (await subscribers()) === 1, 5000);
    });
    await h.receive('a', { sendUrl: receiver.url });

    expect(await turn()).to.deep.equal(DONE);

    expect(receiver.posts()).to.equal(1);
    expect((await h.deliveries.get(id))?.state).to.equal('delivered');
    expect(checks()).to.equal(2);
  });
});
