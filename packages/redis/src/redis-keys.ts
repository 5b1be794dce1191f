import { shardOfId, shardTags } from './shard-layout.js';

/**
 * The whole Redis key layout of dialog-relay, under one prefix (REDIS_PREFIX) so that several
 * deployments or test runs can share a server. Parts that come from callers are URI-encoded so
 * that a ':' inside an id can never make two keys collide.
 *
 * Every key carries a Redis Cluster hash tag (docs/design/scaling.md): a conversation's keys, its delivery
 * records, its shard's dead-letter index and its shard's BullMQ queue share the shard's tag, so each
 * Lua script touches one slot; client and admission keys share a tag per client.
 */
const part = (value: string): string => encodeURIComponent(value);

/** A delivery id names its shard at the end (`…_s7`), so its record can be found from the id alone. */
const DELIVERY_SHARD = /_s(\d{1,4})$/;

export function createRedisKeys(prefix: string, shards = 16) {
  const tags = shardTags(shards);
  // A script's keys of one conversation are made together (a reply's take and settle name 8-10 each):
  // the shard, a CRC16 that allocates the id's UTF-8 bytes, is worked out once for them.
  let lastConversation: string | undefined;
  let lastShard = 0;
  const shardOf = (conversationId: string): number => {
    if (conversationId !== lastConversation) {
      lastShard = shardOfId(conversationId, shards);
      lastConversation = conversationId;
    }
    return lastShard;
  };
  const shardOfDelivery = (deliveryId: string): number => {
    const named = DELIVERY_SHARD.exec(deliveryId);
    return named ? Number(named[1]) % shards : shardOfId(deliveryId, shards);
  };
  // Each key is spelled by one template, without arrays or joins in between: a request names a dozen
  // and a delivered reply two dozen (docs/design/performance-log.md, fifteenth session).
  const shardBases = tags.map((tag) => `${prefix}{${tag}}:`);
  /** `tail` in `shard`'s hash tag. */
  const inShard = (shard: number, tail: string): string => `${shardBases[shard % shards]!}${tail}`;
  /** A conversation's key: `<kind>:<conversation id>`, then `:<suffix>` if any, in its shard's hash tag. */
  const conv = (conversationId: string, kind: string, suffix?: string): string => {
    const base = shardBases[shardOf(conversationId)]!;
    return suffix === undefined ? `${base}${kind}:${conversationId}` : `${base}${kind}:${conversationId}:${suffix}`;
  };
  // A request's client keys are made together (admission's three, the msg_id index): its tag is encoded once for them.
  let lastClient: string | undefined;
  let lastClientBase = '';
  const ofClient = (client: string, tail: string): string => {
    if (client !== lastClient) {
      lastClientBase = `${prefix}{c:${part(client)}}:`;
      lastClient = client;
    }
    return `${lastClientBase}${tail}`;
  };
  const key = (...parts: string[]): string => prefix + parts.join(':');
  return Object.freeze({
    prefix,
    shards,
    /** The hash tag of each shard (index = shard). */
    shardTags: tags,
    /** The shard of a conversation (stable hash of its id). */
    shardOf,
    /** The shard a delivery id names. */
    shardOfDelivery,
    /** String: the QUEUE_SHARDS the data in Redis was written with (a different count refuses to start). */
    shardCount: key('meta', 'queue-shards'),
    /** Counter each replica confirmation increments: the write its WAIT counts (docs/design/scaling.md). */
    replicationFence: key('meta', 'replication-fence'),
    /** Hash: client id -> JSON ClientRecord. Written by the admin CLI, read by the API (cached briefly). */
    clients: key('clients'),
    /** String counter of one client's requests in one second (fixed window). */
    rateWindow: (client: string, second: number) => ofClient(client, `rate:${second}`),
    /** Marker of a signed request already seen, kept for the timestamp window. */
    replay: (client: string, digest: string) => ofClient(client, `replay:${digest}`),
    /** The first answer to a msg_id: "pending" while it is produced, then the JSON answer (24 h). */
    idempotency: (client: string, eventType: string, msgId: string) => ofClient(client, `idem:${eventType}:${part(msgId)}`),
    /** List of a conversation's msg ids, oldest first, capped. */
    contextOrder: (conversationId: string) => conv(conversationId, 'ctx', 'order'),
    /** Hash: msg id -> JSON ContextMessage of the same conversation. */
    contextMessages: (conversationId: string) => conv(conversationId, 'ctx', 'msgs'),
    /** The conversation an auto_dialog msg_id was recorded in (used by assist_dialog). */
    messageConversation: (client: string, msgId: string) => ofClient(client, `msgconv:${part(msgId)}`),
    /** Set while auto replies of a conversation are stopped (cmd_dialog stop_auto_reply). */
    autoReplyStopped: (conversationId: string) => conv(conversationId, 'stop'),
    /** List of JSON due messages of a conversation waiting for their reply, oldest first. */
    pendingReplies: (conversationId: string) => conv(conversationId, 'pending'),
    /** Marks a msg_id already put in the pending list, so a retried request never queues it twice. */
    scheduledMessage: (conversationId: string, msgId: string) => conv(conversationId, 'pending', `msg:${part(msgId)}`),
    /** Redis server time (ms) of the latest due message: the debounce window runs from it. */
    pendingSince: (conversationId: string) => conv(conversationId, 'pending', 'at'),
    /** Redis server time (ms) of the oldest unanswered due message: the debounce ceiling runs from it. */
    pendingOldest: (conversationId: string) => conv(conversationId, 'pending', 'oldest'),
    /** Set (with an expiry) while a human's message pauses the conversation's auto replies; value: until (ms). */
    pausedUntil: (conversationId: string) => conv(conversationId, 'pause'),
    /** The conversation's reply generation: its one reply job is `${conversationId}-${generation}`. */
    replyGeneration: (conversationId: string) => conv(conversationId, 'gen'),
    /** JSON {delivery_id, generation, messages} of the turn being answered (kept until it is delivered or given up). */
    replyBatch: (conversationId: string) => conv(conversationId, 'batch'),
    /**
     * Sorted set of one shard's conversations with messages waiting (member: conversation id; score:
     * Redis server ms since when, or of the last sweep that checked it): the safety net that finds
     * waiting messages whose turn job was never added (docs/design/reply-protocol.md).
     */
    waitingConversations: (shard: number) => inShard(shard, 'waiting-conversations'),
    /**
     * Hash of the delivery attempts in flight to this conversation (a turn's, and operators' replays
     * beside it): field the delivery id, value the Redis server ms until which it counts.
     */
    attemptsInFlight: (conversationId: string) => conv(conversationId, 'attempts'),
    /** Hash of one delivery: state, payload, deadline, send_url ... */
    delivery: (deliveryId: string) => inShard(shardOfDelivery(deliveryId), `delivery:${deliveryId}`),
    /** SCAN pattern of one shard's delivery records (and their attempt lists). */
    deliveryScanPattern: (shard: number) => inShard(shard, 'delivery:*'),
    /** List of JSON attempt records of one delivery. */
    deliveryAttempts: (deliveryId: string) => inShard(shardOfDelivery(deliveryId), `delivery:${deliveryId}:attempts`),
    /** List of a conversation's latest delivery ids, newest first. */
    conversationDeliveries: (conversationId: string) => conv(conversationId, 'deliveries'),
    /** Sorted set of one shard's dead-lettered delivery ids, scored by the time they died (ms). */
    deadLetters: (shard: number) => inShard(shard, 'dead-letters'),
    /** Pub/sub channel: a stop or a human's message asks the worker holding an attempt to abort it. */
    abortChannel: key('signal', 'abort'),
    /** Pub/sub channel: a worker says an aborted attempt has ended (stop_auto_reply waits for it). */
    abortedChannel: key('signal', 'aborted'),
    /** Prefix handed to the BullMQ queue of one shard for its own keys. */
    bullPrefix: (shard: number) => inShard(shard, 'bull'),
  });
}

export type RedisKeys = ReturnType<typeof createRedisKeys>;
