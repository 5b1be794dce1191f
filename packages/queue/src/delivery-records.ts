import type { DeliveryAttemptView, DeliveryView } from '@dialog-relay/chat';
import type { Redis, RedisKeys } from '@dialog-relay/redis';

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'dead' | 'cancelled';
export type DeadReason = 'permanent' | 'stale' | 'exhausted';

/** One reply to deliver, kept from its production until long after it is done (CONTRACT §7). */
export interface DeliveryRecord {
  delivery_id: string;
  conversation_id: string;
  client: string;
  send_url: string;
  in_reply_to: string[];
  state: DeliveryState;
  /** The exact JSON body POSTed on every attempt, so retries and replays send the same bytes. */
  payload: string;
  /** JSON ReplyPart[]: recorded in the conversation's context once delivered. */
  reply_content: string;
  /** The generation of the conversation turn that produced it. */
  generation: number;
  created_at_ms: number;
  deadline_ms: number;
  dead_reason: DeadReason | '';
}

export interface DeliveryAttempt extends DeliveryAttemptView {
  /** The receiver's answer, cut to 4 KiB. */
  response_body: string | null;
}

export interface DeliveryRecords {
  /** Creates the record unless it exists; returns the stored one either way (a re-run after a crash keeps the first reply). */
  create(record: DeliveryRecord): Promise<DeliveryRecord>;
  get(deliveryId: string): Promise<DeliveryRecord | undefined>;
  attempts(deliveryId: string): Promise<DeliveryAttempt[]>;
  appendAttempt(deliveryId: string, attempt: DeliveryAttempt): Promise<void>;
  setState(deliveryId: string, state: Exclude<DeliveryState, 'dead'>, extra?: Partial<Pick<DeliveryRecord, 'deadline_ms'>>): Promise<void>;
  /** Marks a delivery that is still pending or retrying as cancelled (stop_auto_reply); false if there is none. */
  cancel(deliveryId: string): Promise<boolean>;
  deadLetter(deliveryId: string, reason: DeadReason, atMs: number): Promise<void>;
  /** Dead letters, newest first. */
  listDead(offset: number, limit: number): Promise<DeliveryRecord[]>;
  removeFromDead(deliveryId: string): Promise<boolean>;
  latestForConversation(conversationId: string, limit: number): Promise<DeliveryView[]>;
}

const KEEP_PER_CONVERSATION = 20;

/** Stable across retries and crashes: the webhook-id receivers deduplicate on. */
export const deliveryIdOf = (conversationId: string, generation: number): string => `dlv_${conversationId.slice(2)}_${generation}`;

function parseRecord(hash: Record<string, string>): DeliveryRecord | undefined {
  if (hash['delivery_id'] === undefined) return undefined;
  return {
    delivery_id: hash['delivery_id'],
    conversation_id: hash['conversation_id'] ?? '',
    client: hash['client'] ?? '',
    send_url: hash['send_url'] ?? '',
    in_reply_to: JSON.parse(hash['in_reply_to'] ?? '[]') as string[],
    state: (hash['state'] ?? 'pending') as DeliveryState,
    payload: hash['payload'] ?? '',
    reply_content: hash['reply_content'] ?? '[]',
    generation: Number(hash['generation'] ?? 0),
    created_at_ms: Number(hash['created_at_ms'] ?? 0),
    deadline_ms: Number(hash['deadline_ms'] ?? 0),
    dead_reason: (hash['dead_reason'] ?? '') as DeadReason | '',
  };
}

export function createDeliveryRecords(deps: { redis: Redis; keys: RedisKeys; ttlS: number }): DeliveryRecords {
  const { redis, keys, ttlS } = deps;
  const attemptsOf = async (id: string): Promise<DeliveryAttempt[]> =>
    (await redis.lrange(keys.deliveryAttempts(id), 0, -1)).map((json) => JSON.parse(json) as DeliveryAttempt);
  const get = async (id: string): Promise<DeliveryRecord | undefined> => parseRecord(await redis.hgetall(keys.delivery(id)));
  return {
    async create(record) {
      const key = keys.delivery(record.delivery_id);
      const created = await redis.hsetnx(key, 'delivery_id', record.delivery_id);
      if (created === 0) return (await get(record.delivery_id)) ?? record;
      await redis.multi()
        .hset(key, { ...record, in_reply_to: JSON.stringify(record.in_reply_to) })
        .expire(key, ttlS)
        .lpush(keys.conversationDeliveries(record.conversation_id), record.delivery_id)
        .ltrim(keys.conversationDeliveries(record.conversation_id), 0, KEEP_PER_CONVERSATION - 1)
        .expire(keys.conversationDeliveries(record.conversation_id), ttlS)
        .exec();
      return record;
    },
    get,
    attempts: attemptsOf,
    async appendAttempt(id, attempt) {
      await redis.multi().rpush(keys.deliveryAttempts(id), JSON.stringify(attempt)).expire(keys.deliveryAttempts(id), ttlS).exec();
    },
    async setState(id, state, extra = {}) {
      await redis.hset(keys.delivery(id), { state, ...extra });
    },
    async cancel(id) {
      const state = await redis.hget(keys.delivery(id), 'state');
      if (state !== 'pending' && state !== 'retrying') return false;
      await redis.hset(keys.delivery(id), 'state', 'cancelled');
      return true;
    },
    async deadLetter(id, reason, atMs) {
      await redis.multi().hset(keys.delivery(id), { state: 'dead', dead_reason: reason }).zadd(keys.deadLetters, atMs, id).exec();
    },
    async listDead(offset, limit) {
      const ids = await redis.zrevrange(keys.deadLetters, offset, offset + limit - 1);
      const records = await Promise.all(ids.map(get));
      return records.filter((r): r is DeliveryRecord => r !== undefined);
    },
    async removeFromDead(id) {
      return (await redis.zrem(keys.deadLetters, id)) === 1;
    },
    async latestForConversation(conversationId, limit) {
      const ids = await redis.lrange(keys.conversationDeliveries(conversationId), 0, limit - 1);
      const views = await Promise.all(ids.map(async (id): Promise<DeliveryView | undefined> => {
        const [record, attempts] = await Promise.all([get(id), attemptsOf(id)]);
        if (!record) return undefined;
        const shown = attempts.map(({ attempt, at, status, latency_ms, error }) => ({ attempt, at, status, latency_ms, error }));
        return { delivery_id: id, state: record.state, in_reply_to: record.in_reply_to, attempts: shown };
      }));
      return views.filter((v): v is DeliveryView => v !== undefined);
    },
  };
}
