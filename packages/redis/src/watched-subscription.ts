import { Cluster } from 'ioredis';
import type { Redis } from './redis-connection.js';

/**
 * A pub/sub channel subscription that knows its gaps. Redis does not keep what is published while a
 * subscriber is away (disconnected, reconnecting, not subscribed yet): a listener that must not
 * miss a message asks `stretch()` when it starts listening and again later; the same number both
 * times means nothing published in between was lost.
 */
export interface WatchedSubscription {
  /** Resolves once the channel is first subscribed. */
  readonly ready: Promise<void>;
  /**
   * The current unbroken stretch of listening (a number that changes whenever the connection drops),
   * or undefined while the subscription is not known to be live.
   */
  stretch(): number | undefined;
}

/**
 * Subscribes `subscriber` (a connection of the `subscriber` role) to `channel` and watches the
 * connection. A cluster's pub/sub connection is internal to ioredis and its gaps cannot be seen:
 * its stretch is always undefined (never vouched for).
 */
export function watchSubscription(subscriber: Redis, channel: string): WatchedSubscription {
  // Which connection is current (counted up each time one closes) and which one is known to be subscribed.
  let connection = 0;
  let subscribedOn = -1;
  const observable = !(subscriber instanceof Cluster);
  const subscribe = async (): Promise<void> => {
    const on = connection;
    await subscriber.subscribe(channel);
    if (on === connection) subscribedOn = on;
  };
  subscriber.on('close', () => (connection += 1));
  // ioredis resubscribes by itself after a reconnect but says nothing when that is done: this
  // SUBSCRIBE, sent after its own on the same connection, answers once the connection listens.
  subscriber.on('ready', () => void subscribe().catch(() => undefined));
  const ready = subscribe();
  ready.catch(() => undefined);
  return {
    ready,
    // The status leaves 'ready' as soon as the connection drops; the close event comes a tick later.
    stretch: () => (observable && subscribedOn === connection && subscriber.status === 'ready' ? connection : undefined),
  };
}
