import { watchSubscription, type Redis, type RedisKeys } from '@dialog-relay/redis';

/**
 * Aborting a delivery attempt in flight (docs/service-rules.md §14), across processes by Redis pub/sub: the API
 * publishes "abort conversation C, delivery D" and waits, briefly, for the worker that holds the
 * attempt to say it has ended. Pub/sub loses what is published while the worker's subscriber is
 * away, so the stop's guarantee does not rest on this signal alone: the worker's registry says
 * whether it heard every abort since an attempt registered, and an attempt that cannot be vouched
 * for checks the stop again in Redis before its POST (docs/design/reply-protocol.md, Stop, resume, status).
 */
interface AbortMessage {
  conversation_id: string;
  delivery_id: string;
}

const encode = (conversationId: string, deliveryId: string): string =>
  JSON.stringify({ conversation_id: conversationId, delivery_id: deliveryId });
const decode = (raw: string): AbortMessage | undefined => {
  try {
    const parsed = JSON.parse(raw) as Partial<AbortMessage>;
    return typeof parsed.conversation_id === 'string' && typeof parsed.delivery_id === 'string' ? (parsed as AbortMessage) : undefined;
  } catch {
    return undefined;
  }
};

/** The API side. */
export interface AbortRequester {
  /** Resolves true once the holder says the attempt ended, false after waitMs (or when Redis fails). */
  abort(conversationId: string, deliveryId: string, waitMs: number): Promise<boolean>;
  close(): void;
}

export function createAbortRequester(deps: { redis: Redis; subscriber: Redis; keys: RedisKeys }): AbortRequester {
  const { redis, subscriber, keys } = deps;
  const waiters = new Map<string, Set<() => void>>();
  let subscribed: Promise<unknown> | undefined;
  subscriber.on('message', (channel: string, raw: string) => {
    const message = channel === keys.abortedChannel ? decode(raw) : undefined;
    if (!message) return;
    const key = encode(message.conversation_id, message.delivery_id);
    for (const done of waiters.get(key) ?? []) done();
    waiters.delete(key);
  });
  return {
    async abort(conversationId, deliveryId, waitMs) {
      const key = encode(conversationId, deliveryId);
      let release: () => void = () => undefined;
      const ended = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), waitMs);
        release = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      const set = waiters.get(key) ?? new Set();
      set.add(release);
      waiters.set(key, set);
      try {
        subscribed ??= subscriber.subscribe(keys.abortedChannel).catch((error: unknown) => {
          subscribed = undefined;
          throw error;
        });
        await subscribed;
        await redis.publish(keys.abortChannel, key);
        return await ended;
      } catch {
        return false;
      } finally {
        set.delete(release);
        if (set.size === 0) waiters.delete(key);
      }
    },
    close: () => subscriber.disconnect(),
  };
}

/** The worker side: attempts register while in flight, and an abort message aborts the matching one. */
export interface AttemptRegistry {
  /** Ready once the worker listens for abort messages. */
  ready(): Promise<void>;
  /**
   * Registers an attempt in flight; call release when it is over. heardThroughout: true only while
   * every abort published since the registration has reached this registry (its subscriber was
   * subscribed then and its connection has not dropped since); false means an abort may be lost.
   */
  register(conversationId: string, deliveryId: string): { signal: AbortSignal; heardThroughout: () => boolean; release: () => void };
  /** Tells a waiting stop that the aborted attempt has ended (recorded as cancelled). */
  acknowledge(conversationId: string, deliveryId: string): Promise<void>;
  close(): void;
}

export function createAttemptRegistry(deps: { redis: Redis; subscriber: Redis; keys: RedisKeys }): AttemptRegistry {
  const { redis, subscriber, keys } = deps;
  const inFlight = new Map<string, AbortController>();
  subscriber.on('message', (channel: string, raw: string) => {
    if (channel !== keys.abortChannel || decode(raw) === undefined) return;
    inFlight.get(raw)?.abort(new Error('cancelled'));
  });
  const subscription = watchSubscription(subscriber, keys.abortChannel);
  return {
    ready: () => subscription.ready,
    register(conversationId, deliveryId) {
      const key = encode(conversationId, deliveryId);
      const controller = new AbortController();
      inFlight.set(key, controller);
      const since = subscription.stretch();
      return {
        signal: controller.signal,
        heardThroughout: () => since !== undefined && subscription.stretch() === since,
        release: () => inFlight.get(key) === controller && inFlight.delete(key),
      };
    },
    async acknowledge(conversationId, deliveryId) {
      await redis.publish(keys.abortedChannel, encode(conversationId, deliveryId));
    },
    close: () => subscriber.disconnect(),
  };
}
