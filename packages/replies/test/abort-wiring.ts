import { createDeliverer, type Deliverer, type DelivererOptions } from '@dialog-relay/delivery';
import { createRedis, type Redis } from '@dialog-relay/redis';
import { testRedisUrl } from '@dialog-relay/testkit';
import {
  createAbortRequester,
  createAttemptRegistry,
  createAutoReplies,
  type AbortRequester,
  type AttemptRegistry,
  type AutoReplies,
} from './internals.js';
import type { Harness } from './harness.js';

export interface AbortWiring {
  /** The worker's registry of attempts in flight (its own subscriber), already listening. */
  registry: AttemptRegistry;
  workerSubscriber: Redis;
  requester: AbortRequester;
  /** Stops and human messages, as the API runs them, over the harness's stores. */
  replies: AutoReplies;
  close(): void;
}

/**
 * A worker side (its attempt registry subscribed to aborts) and an API side (its stops publish
 * them) over real Redis pub/sub and the harness's stores; the harness's attempts become the registry.
 */
export async function wireAborts(redis: Redis, h: Harness, name: string): Promise<AbortWiring> {
  const single = { target: { mode: 'single' as const, url: testRedisUrl() }, password: undefined, tls: false };
  const workerSubscriber = createRedis(single, 'subscriber', { name: `${name}-worker-signals` });
  workerSubscriber.on('error', () => undefined);
  const apiSubscriber = createRedis(single, 'subscriber', { name: `${name}-api-signals` });
  apiSubscriber.on('error', () => undefined);
  const registry = createAttemptRegistry({ redis, subscriber: workerSubscriber, keys: h.keys });
  const requester = createAbortRequester({ redis, subscriber: apiSubscriber, keys: h.keys });
  const replies = createAutoReplies({
    turns: h.turns,
    deliveries: h.deliveries,
    jobs: { addTurn: () => Promise.resolve(), removeTurn: () => Promise.resolve() },
    aborts: requester,
    settings: { debounceMs: 0, humanPauseMs: 0, abortWaitMs: 300 },
  });
  await registry.ready();
  h.deps.attempts = registry;
  return {
    registry,
    workerSubscriber,
    requester,
    replies,
    close: () => {
      registry.close();
      requester.close();
    },
  };
}

/** The real deliverer, held to loopback receivers: a request to any other URL fails the test and never leaves. */
export function loopbackDeliverer(receiverUrls: readonly string[], options: Omit<DelivererOptions, 'allowPrivate'>): Deliverer {
  const deliverer = createDeliverer({ ...options, allowPrivate: true });
  return {
    deliver: (request) =>
      receiverUrls.some((url) => request.url.startsWith(url))
        ? deliverer.deliver(request)
        : Promise.reject(new Error(`not a loopback receiver of this test: ${request.url}`)),
    close: () => deliverer.close(),
  };
}
