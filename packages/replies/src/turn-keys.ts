import type { RedisKeys } from '@dialog-relay/redis';

/** How each key of one conversation is named, by the name the turn scripts' headers give it. */
const CONVERSATION_KEYS = {
  pending: (keys: RedisKeys, c: string) => keys.pendingReplies(c),
  since: (keys: RedisKeys, c: string) => keys.pendingSince(c),
  oldest: (keys: RedisKeys, c: string) => keys.pendingOldest(c),
  generation: (keys: RedisKeys, c: string) => keys.replyGeneration(c),
  batch: (keys: RedisKeys, c: string) => keys.replyBatch(c),
  stop: (keys: RedisKeys, c: string) => keys.autoReplyStopped(c),
  paused: (keys: RedisKeys, c: string) => keys.pausedUntil(c),
  attempts: (keys: RedisKeys, c: string) => keys.attemptsInFlight(c),
  waiting: (keys: RedisKeys, c: string) => keys.waitingConversations(keys.shardOf(c)),
  order: (keys: RedisKeys, c: string) => keys.contextOrder(c),
  messages: (keys: RedisKeys, c: string) => keys.contextMessages(c),
  deliveries: (keys: RedisKeys, c: string) => keys.conversationDeliveries(c),
} as const satisfies Record<string, (keys: RedisKeys, c: string) => string>;

type ConversationKeyName = keyof typeof CONVERSATION_KEYS;

/**
 * Only the keys of one conversation that `names` lists (a part's declared keys; a name that is not a
 * conversation's key is left for the caller to add). The request path builds no key its script does
 * not take: a status read takes 5 of the 12 (docs/design/performance.md).
 */
export function conversationKeysFor<N extends string>(
  keys: RedisKeys,
  c: string,
  names: readonly N[],
): Record<Extract<N, ConversationKeyName>, string> {
  const some: Record<string, string> = {};
  for (const name of names) {
    const of = (CONVERSATION_KEYS as Partial<Record<string, (keys: RedisKeys, c: string) => string>>)[name];
    if (of !== undefined) some[name] = of(keys, c);
  }
  return some;
}

/**
 * Every key of one conversation that the turn scripts and the request parts name, by the names their
 * headers give them (a script call takes only the keys its script declares). One object literal of a
 * fixed shape, each key named by CONVERSATION_KEYS: the worker's turn scripts take it several times a
 * reply, and a loop adding the names one by one cost about twice as long (0.6-0.7 against 1.0-1.3 µs).
 */
export const conversationKeys = (keys: RedisKeys, c: string): Record<ConversationKeyName, string> => ({
  pending: CONVERSATION_KEYS.pending(keys, c),
  since: CONVERSATION_KEYS.since(keys, c),
  oldest: CONVERSATION_KEYS.oldest(keys, c),
  generation: CONVERSATION_KEYS.generation(keys, c),
  batch: CONVERSATION_KEYS.batch(keys, c),
  stop: CONVERSATION_KEYS.stop(keys, c),
  paused: CONVERSATION_KEYS.paused(keys, c),
  attempts: CONVERSATION_KEYS.attempts(keys, c),
  waiting: CONVERSATION_KEYS.waiting(keys, c),
  order: CONVERSATION_KEYS.order(keys, c),
  messages: CONVERSATION_KEYS.messages(keys, c),
  deliveries: CONVERSATION_KEYS.deliveries(keys, c),
});
