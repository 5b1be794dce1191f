/**
 * The whole Redis key layout of dialog-relay, under one prefix (REDIS_PREFIX) so that several
 * deployments or test runs can share a server. Parts that come from callers are URI-encoded so
 * that a ':' inside an id can never make two keys collide.
 */
const part = (value: string): string => encodeURIComponent(value);

export function createRedisKeys(prefix: string) {
  const key = (...parts: string[]): string => prefix + parts.join(':');
  return Object.freeze({
    prefix,
    /** Hash: client id -> JSON ClientRecord. Written by the admin CLI, read by the API (cached briefly). */
    clients: key('clients'),
    /** String counter of one client's requests in one second (fixed window). */
    rateWindow: (client: string, second: number) => key('rate', part(client), String(second)),
    /** Marker of a signed request already seen, kept for the timestamp window. */
    replay: (client: string, digest: string) => key('replay', part(client), digest),
    /** The first answer to a msg_id: "pending" while it is produced, then the JSON answer (24 h). */
    idempotency: (client: string, eventType: string, msgId: string) =>
      key('idem', part(client), eventType, part(msgId)),
    /** List of a conversation's msg ids, oldest first, capped. */
    contextOrder: (conversationId: string) => key('ctx', conversationId, 'order'),
    /** Hash: msg id -> JSON ContextMessage of the same conversation. */
    contextMessages: (conversationId: string) => key('ctx', conversationId, 'msgs'),
    /** The conversation an auto_dialog msg_id was recorded in (used by assist_dialog). */
    messageConversation: (client: string, msgId: string) => key('msgconv', part(client), part(msgId)),
    /** Set while auto replies of a conversation are stopped (cmd_dialog stop_auto_reply). */
    autoReplyStopped: (conversationId: string) => key('stop', conversationId),
    /** List of JSON due messages of a conversation waiting for their reply, oldest first. */
    pendingReplies: (conversationId: string) => key('pending', conversationId),
    /** Marks a msg_id already put in the pending list, so a retried request never queues it twice. */
    scheduledMessage: (conversationId: string, msgId: string) => key('pending', conversationId, 'msg', part(msgId)),
    /** Redis server time (ms) of the latest due message: the debounce window runs from it. */
    pendingSince: (conversationId: string) => key('pending', conversationId, 'at'),
    /** The conversation's reply generation: its one reply job is `${conversationId}-${generation}`. */
    replyGeneration: (conversationId: string) => key('gen', conversationId),
    /** JSON array of the due messages generation N is answering (kept until it is delivered or given up). */
    replyBatch: (conversationId: string, generation: number) => key('batch', conversationId, String(generation)),
    /** Present while a delivery attempt to this conversation is in flight (value: delivery id). */
    attemptInFlight: (conversationId: string) => key('attempt', conversationId),
    /** Hash of one delivery: state, payload, deadline, send_url ... */
    delivery: (deliveryId: string) => key('delivery', deliveryId),
    /** List of JSON attempt records of one delivery. */
    deliveryAttempts: (deliveryId: string) => key('delivery', deliveryId, 'attempts'),
    /** List of a conversation's latest delivery ids, newest first. */
    conversationDeliveries: (conversationId: string) => key('deliveries', conversationId),
    /** Sorted set of dead-lettered delivery ids, scored by the time they died (ms). */
    deadLetters: key('dead-letters'),
    /** Prefix handed to BullMQ for its own keys. */
    bullPrefix: key('bull'),
  });
}

export type RedisKeys = ReturnType<typeof createRedisKeys>;
