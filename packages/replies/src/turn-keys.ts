import type { RedisKeys } from '@dialog-relay/redis';

/**
 * Every key of one conversation that the turn scripts and the request parts name, by the names their
 * headers give them (a script call takes only the keys its script declares).
 */
export const conversationKeys = (keys: RedisKeys, c: string) => ({
  pending: keys.pendingReplies(c),
  since: keys.pendingSince(c),
  oldest: keys.pendingOldest(c),
  generation: keys.replyGeneration(c),
  batch: keys.replyBatch(c),
  stop: keys.autoReplyStopped(c),
  paused: keys.pausedUntil(c),
  attempts: keys.attemptsInFlight(c),
  waiting: keys.waitingConversations(keys.shardOf(c)),
  order: keys.contextOrder(c),
  messages: keys.contextMessages(c),
  deliveries: keys.conversationDeliveries(c),
});
