import { runScript, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { BURY, CREATE, REVIVE, TRANSITION } from './delivery.lua.js';
import { DEAD_REASONS, type DeadReason, type DeliveryAttempt, type DeliveryRecord, type DeliveryState, type DeliveryView } from './reply.types.js';

/** The delivery records: one hash per reply, its attempt log, the dead-letter index (docs/service-rules.md §7, §15). */
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
  /** Takes a dead letter back for redelivery (fresh deadline and attempt budget); false if it is not dead. */
  revive(deliveryId: string, deadlineMs: number): Promise<boolean>;
  /** Undoes revive when the redelivery could not be queued. */
  bury(deliveryId: string, reason: DeadReason, detail: string, atMs: number): Promise<void>;
  /** Dead letters, newest first. */
  listDead(offset: number, limit: number): Promise<DeliveryRecord[]>;
  /** How many dead letters there are, over all shards. */
  countDead(): Promise<number>;
  latestForConversation(conversationId: string, limit: number): Promise<DeliveryView[]>;
}

const KEEP_PER_CONVERSATION = 20;

/** Reasons written by earlier versions, read as today's names. */
const LEGACY_REASONS: Record<string, DeadReason> = { permanent: 'permanent_status', exhausted: 'attempts_exhausted' };
const readReason = (raw: string | undefined): DeadReason | '' => {
  if (raw === undefined || raw === '') return '';
  if ((DEAD_REASONS as readonly string[]).includes(raw)) return raw as DeadReason;
  return LEGACY_REASONS[raw] ?? 'failed';
};

function parseRecord(hash: Record<string, string>): DeliveryRecord | undefined {
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
  };
}

export function createDeliveryStore(deps: { redis: Redis; keys: RedisKeys; ttlS: number }): DeliveryStore {
  const { redis, keys, ttlS } = deps;
  // A record, its attempts and its shard's dead-letter index share the shard's hash tag (one slot).
  const recordKeys = (id: string) => ({ delivery: keys.delivery(id), deadLetters: keys.deadLetters(keys.shardOfDelivery(id)), attempts: keys.deliveryAttempts(id) });
  const attemptsOf = async (id: string): Promise<DeliveryAttempt[]> =>
    (await redis.lrange(keys.deliveryAttempts(id), 0, -1)).map((json) => JSON.parse(json) as DeliveryAttempt);
  const get = async (id: string): Promise<DeliveryRecord | undefined> => parseRecord(await redis.hgetall(keys.delivery(id)));
  const transition = async (id: string, state: DeliveryState, reason = '', detail = '', atMs = 0): Promise<boolean> =>
    (await runScript(redis, TRANSITION, recordKeys(id), { state, reason, detail, atMs })) === 1;
  return {
    async create(record) {
      const fields = Object.entries({ ...record, in_reply_to: JSON.stringify(record.in_reply_to) }).flatMap(([field, value]) => [field, String(value)]);
      const created = await runScript(redis, CREATE, { delivery: keys.delivery(record.delivery_id), conversationDeliveries: keys.conversationDeliveries(record.conversation_id) },
        { ttlS, keep: KEEP_PER_CONVERSATION, deliveryId: record.delivery_id }, fields);
      return created === 1 ? record : ((await get(record.delivery_id)) ?? record);
    },
    get,
    attempts: attemptsOf,
    attemptCount: (id) => redis.llen(keys.deliveryAttempts(id)),
    async appendAttempt(id, attempt) {
      await redis.multi().rpush(keys.deliveryAttempts(id), JSON.stringify(attempt)).expire(keys.deliveryAttempts(id), ttlS).exec();
    },
    setState: (id, state) => transition(id, state),
    cancel: (id) => transition(id, 'cancelled'),
    deadLetter: (id, reason, detail, atMs) => transition(id, 'dead', reason, detail, atMs),
    async revive(id, deadlineMs) {
      return (await runScript(redis, REVIVE, recordKeys(id), { deliveryId: id, deadlineMs })) === 1;
    },
    async bury(id, reason, detail, atMs) {
      await runScript(redis, BURY, recordKeys(id), { deliveryId: id, reason, detail, atMs });
    },
    async listDead(offset, limit) {
      // Newest first across the shards: the first offset+limit of each shard, merged by time of death.
      const perShard = await Promise.all(Array.from({ length: keys.shards }, (_, shard) => redis.zrevrange(keys.deadLetters(shard), 0, offset + limit - 1, 'WITHSCORES')));
      const scored = perShard.flatMap((flat) => flat.flatMap((value, i) => (i % 2 === 0 ? [{ id: value, at: Number(flat[i + 1]) }] : [])));
      scored.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
      const ids = scored.slice(offset, offset + limit).map((entry) => entry.id);
      const records = await Promise.all(ids.map(get));
      return records.filter((r): r is DeliveryRecord => r !== undefined);
    },
    async countDead() {
      const counts = await Promise.all(Array.from({ length: keys.shards }, (_, shard) => redis.zcard(keys.deadLetters(shard))));
      return counts.reduce((sum, n) => sum + n, 0);
    },
    async latestForConversation(conversationId, limit) {
      const ids = await redis.lrange(keys.conversationDeliveries(conversationId), 0, limit - 1);
      const views = await Promise.all(ids.map(async (id): Promise<DeliveryView | undefined> => {
        const [record, attempts] = await Promise.all([get(id), attemptsOf(id)]);
        if (!record) return undefined;
        const shown = attempts.map(({ attempt, at, status, latency_ms, error }) => ({ attempt, at, status, latency_ms, error }));
        return { delivery_id: id, state: record.state, in_reply_to: record.in_reply_to, ...(record.dead_reason ? { dead_reason: record.dead_reason } : {}), attempts: shown };
      }));
      return views.filter((v): v is DeliveryView => v !== undefined);
    },
  };
}
