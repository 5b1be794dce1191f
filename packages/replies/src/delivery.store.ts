import { runScript, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { APPEND_ATTEMPT, BURY, CREATE, REVIVE, TRANSITION } from './delivery.lua.js';
import {
  DEAD_REASONS,
  KEEP_PER_CONVERSATION,
  RECORD_FIELDS,
  type DeadReason,
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryState,
  type DeliveryView,
} from './reply.types.js';

/**
 * The delivery records: one hash per reply, its attempt log, the dead-letter index (docs/service-rules.md §7, §15).
 * A record and its attempts expire `ttlS` after they were written (CONTEXT_TTL_S); a dead letter is
 * kept `deadLetterTtlS` from the moment it died or was replayed (DEAD_LETTER_TTL_S).
 */
export interface DeliveryStore {
  /** Creates the record unless it exists; returns the stored one either way (a re-run after a crash keeps the first reply). */
  create(record: DeliveryRecord): Promise<DeliveryRecord>;
  get(deliveryId: string): Promise<DeliveryRecord | undefined>;
  attempts(deliveryId: string): Promise<DeliveryAttempt[]>;
  attemptCount(deliveryId: string): Promise<number>;
  appendAttempt(deliveryId: string, attempt: DeliveryAttempt): Promise<void>;
  /** Moves a pending or retrying delivery on; refused (false) when it is already cancelled, delivered or dead. */
  setState(deliveryId: string, state: 'delivered' | 'retrying'): Promise<boolean>;
  /** Marks a delivery that is still pending or retrying as cancelled; false if there is none. */
  cancel(deliveryId: string): Promise<boolean>;
  /** Dead-letters a pending or retrying delivery; refused (false) when it was cancelled meanwhile. */
  deadLetter(deliveryId: string, reason: DeadReason, detail: string, atMs: number): Promise<boolean>;
  /** Takes a dead letter back for redelivery (fresh deadline, attempt budget and deadLetterTtlS); false if it is not dead. */
  revive(deliveryId: string, deadlineMs: number): Promise<boolean>;
  /** Undoes revive when the redelivery could not be queued. */
  bury(deliveryId: string, reason: DeadReason, detail: string, atMs: number): Promise<void>;
  /** Dead letters, newest first (index entries whose record has expired are dropped first). */
  listDead(offset: number, limit: number): Promise<DeliveryRecord[]>;
  /** How many dead letters there are, over all shards (index entries whose record has expired are dropped first). */
  countDead(): Promise<number>;
  latestForConversation(conversationId: string, limit: number): Promise<DeliveryView[]>;
}

/** Index entries checked per round trip when dropping those whose record has expired. */
const PRUNE_BATCH = 500;
/** How much earlier than its score + ttlS a dead letter's record is looked for (a margin: the score is the worker's clock, the expiry Redis's). */
const PRUNE_MARGIN_MS = 24 * 3600_000;
/** countDead (every metrics scrape) drops expired entries at most this often: records expire over days, not seconds. */
const COUNT_PRUNE_INTERVAL_MS = 60_000;

/** A stored reason, read: one this version does not write (a corrupt record) reads as 'failed'. */
const readReason = (raw: string | undefined): DeadReason | '' => {
  if (raw === undefined || raw === '') return '';
  return (DEAD_REASONS as readonly string[]).includes(raw) ? (raw as DeadReason) : 'failed';
};

/** What auto_reply_status shows of a delivery (none when its record is gone). */
export function deliveryViewOf(
  id: string,
  record: DeliveryRecord | undefined,
  attempts: readonly DeliveryAttempt[],
): DeliveryView | undefined {
  if (!record) return undefined;
  const shown = attempts.map(({ attempt, at, status, latency_ms, error }) => ({ attempt, at, status, latency_ms, error }));
  return {
    delivery_id: id,
    state: record.state,
    in_reply_to: record.in_reply_to,
    ...(record.dead_reason ? { dead_reason: record.dead_reason } : {}),
    attempts: shown,
  };
}

/** The record fields auto_reply_status shows (deliveryViewOf), in the order STATUS_PART reads them (HMGET). */
export const STATUS_RECORD_FIELDS = ['delivery_id', 'state', 'in_reply_to', 'dead_reason'] as const;

/** A delivery record as STATUS_PART's HMGET of STATUS_RECORD_FIELDS returns it (null for a missing field): the fields a status shows. */
export function recordOfShownFields(values: readonly (string | null)[]): DeliveryRecord | undefined {
  const hash: Record<string, string> = {};
  STATUS_RECORD_FIELDS.forEach((field, i) => {
    const value = values[i];
    if (typeof value === 'string') hash[field] = value;
  });
  return parseRecord(hash);
}

/** A record as stored (HGETALL); undefined when there is none. */
export function parseRecord(hash: Record<string, string>): DeliveryRecord | undefined {
  if (hash['delivery_id'] === undefined) return undefined;
  let inReplyTo: string[] = [];
  try {
    inReplyTo = JSON.parse(hash['in_reply_to'] ?? '[]') as string[];
  } catch {
    inReplyTo = [];
  }
  return {
    delivery_id: hash['delivery_id'],
    conversation_id: hash['conversation_id'] ?? '',
    client: hash['client'] ?? '',
    send_url: hash['send_url'] ?? '',
    in_reply_to: inReplyTo,
    state: (hash['state'] ?? 'pending') as DeliveryState,
    payload: hash['payload'] ?? '',
    reply_content: hash['reply_content'] ?? '[]',
    generation: Number(hash['generation'] ?? 0),
    created_at_ms: Number(hash['created_at_ms'] ?? 0),
    deadline_ms: Number(hash['deadline_ms'] ?? 0),
    dead_reason: readReason(hash['dead_reason']),
    dead_detail: hash['dead_detail'] ?? '',
    attempt_base: Number(hash['attempt_base'] ?? 0),
    ...(hash['handoff'] === 'true' ? { handoff: true as const } : {}),
  };
}

/** A record's values in RECORD_FIELDS' order (in_reply_to as JSON, handoff 'true' or ''): SETTLE's record. */
export const recordValues = (record: DeliveryRecord): string[] =>
  RECORD_FIELDS.map((field) => {
    const value = record[field];
    return field === 'in_reply_to' ? JSON.stringify(value) : value === undefined ? '' : String(value);
  });

/** A record's hash fields, as field, value pairs (recordValues named; no handoff field unless it hands off). */
export const recordFields = (record: DeliveryRecord): string[] =>
  recordValues(record).flatMap((value, i) => (RECORD_FIELDS[i] === 'handoff' && value === '' ? [] : [RECORD_FIELDS[i]!, value]));

const positiveInteger = (name: string, value: number): number => {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
};

export interface DeliveryStoreDeps {
  redis: Redis;
  keys: RedisKeys;
  /** CONTEXT_TTL_S: how long a record and its attempts are kept after they were written. */
  ttlS: number;
  /** DEAD_LETTER_TTL_S: how long a dead letter is kept from its death or replay. */
  deadLetterTtlS: number;
  /** How often countDead may drop expired index entries (default a minute); listDead always does. */
  countPruneIntervalMs?: number;
  nowMs?: () => number;
}

export function createDeliveryStore(deps: DeliveryStoreDeps): DeliveryStore {
  const { redis, keys } = deps;
  const nowMs = deps.nowMs ?? Date.now;
  const countPruneIntervalMs = deps.countPruneIntervalMs ?? COUNT_PRUNE_INTERVAL_MS;
  let prunedAtMs = Number.NEGATIVE_INFINITY;
  const ttlS = positiveInteger('ttlS', deps.ttlS);
  const deadLetterTtlS = positiveInteger('deadLetterTtlS', deps.deadLetterTtlS);
  // A record, its attempts and its shard's dead-letter index share the shard's hash tag (one slot).
  const recordKeys = (id: string) => ({
    delivery: keys.delivery(id),
    deadLetters: keys.deadLetters(keys.shardOfDelivery(id)),
    attempts: keys.deliveryAttempts(id),
  });
  const attemptsOf = async (id: string): Promise<DeliveryAttempt[]> =>
    (await redis.lrange(keys.deliveryAttempts(id), 0, -1)).map((json) => JSON.parse(json) as DeliveryAttempt);
  const get = async (id: string): Promise<DeliveryRecord | undefined> => parseRecord(await redis.hgetall(keys.delivery(id)));
  const transition = async (id: string, state: DeliveryState, reason = '', detail = '', atMs = 0): Promise<boolean> =>
    (await runScript(redis, TRANSITION, recordKeys(id), { state, reason, detail, atMs, deadTtlS: deadLetterTtlS })) === 1;
  /**
   * Drops the entries of a shard's dead-letter index whose record has expired, so the count, the
   * list and replay agree (docs/design/reply-protocol.md, "How long"). Two steps need no script: a record
   * that is gone never comes back (ids are never reused), and nothing puts an id back on the index
   * without its record (a replay that cannot be queued is buried right after REVIVE renewed its TTL).
   */
  const pruneDead = async (shard: number): Promise<void> => {
    const index = keys.deadLetters(shard);
    // Only entries old enough to have expired are checked: a dead letter is kept at least ttlS from
    // its death (its score), less the margin.
    const cutoff = nowMs() - ttlS * 1000 + PRUNE_MARGIN_MS;
    for (let start = 0; ;) {
      const ids = await redis.zrangebyscore(index, '-inf', cutoff, 'LIMIT', start, PRUNE_BATCH);
      const exists = await Promise.all(ids.map((id) => redis.exists(keys.delivery(id))));
      const gone = ids.filter((_, i) => exists[i] === 0);
      if (gone.length > 0) await redis.zrem(index, ...gone);
      if (ids.length < PRUNE_BATCH) return;
      start += ids.length - gone.length;
    }
  };
  const pruneAll = async (): Promise<void> => {
    prunedAtMs = nowMs();
    await Promise.all(Array.from({ length: keys.shards }, (_, shard) => pruneDead(shard)));
  };
  return {
    async create(record) {
      const fields = recordFields(record);
      const created = await runScript(
        redis,
        CREATE,
        { delivery: keys.delivery(record.delivery_id), conversationDeliveries: keys.conversationDeliveries(record.conversation_id) },
        { ttlS, keep: KEEP_PER_CONVERSATION, deliveryId: record.delivery_id },
        fields,
      );
      return created === 1 ? record : ((await get(record.delivery_id)) ?? record);
    },
    get,
    attempts: attemptsOf,
    attemptCount: (id) => redis.llen(keys.deliveryAttempts(id)),
    async appendAttempt(id, attempt) {
      await runScript(redis, APPEND_ATTEMPT, { attempts: keys.deliveryAttempts(id) }, { ttlS, attempt: JSON.stringify(attempt) });
    },
    setState: (id, state) => transition(id, state),
    cancel: (id) => transition(id, 'cancelled'),
    deadLetter: (id, reason, detail, atMs) => transition(id, 'dead', reason, detail, atMs),
    async revive(id, deadlineMs) {
      return (await runScript(redis, REVIVE, recordKeys(id), { deliveryId: id, deadlineMs, ttlS: deadLetterTtlS })) === 1;
    },
    async bury(id, reason, detail, atMs) {
      await runScript(redis, BURY, recordKeys(id), { deliveryId: id, reason, detail, atMs });
    },
    async listDead(offset, limit) {
      await pruneAll();
      // Newest first across the shards: the first offset+limit of each shard, merged by time of death.
      const perShard = await Promise.all(
        Array.from({ length: keys.shards }, (_, shard) => redis.zrevrange(keys.deadLetters(shard), 0, offset + limit - 1, 'WITHSCORES')),
      );
      const scored = perShard.flatMap((flat) => flat.flatMap((value, i) => (i % 2 === 0 ? [{ id: value, at: Number(flat[i + 1]) }] : [])));
      scored.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
      const ids = scored.slice(offset, offset + limit).map((entry) => entry.id);
      const records = await Promise.all(ids.map(get));
      return records.filter((r): r is DeliveryRecord => r !== undefined);
    },
    async countDead() {
      if (nowMs() - prunedAtMs >= countPruneIntervalMs) await pruneAll();
      const counts = await Promise.all(Array.from({ length: keys.shards }, (_, shard) => redis.zcard(keys.deadLetters(shard))));
      return counts.reduce((sum, n) => sum + n, 0);
    },
    async latestForConversation(conversationId, limit) {
      const ids = await redis.lrange(keys.conversationDeliveries(conversationId), 0, limit - 1);
      const views = await Promise.all(
        ids.map(async (id): Promise<DeliveryView | undefined> => {
          const [record, attempts] = await Promise.all([get(id), attemptsOf(id)]);
          return deliveryViewOf(id, record, attempts);
        }),
      );
      return views.filter((v): v is DeliveryView => v !== undefined);
    },
  };
}
