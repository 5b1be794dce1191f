import type { DeliveryAttemptView, DeliveryView } from '@dialog-relay/chat';
import { defineScript, type Redis, type RedisKeys } from '@dialog-relay/redis';

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
  /** Attempts made before the operator's last replay: the attempt limit counts from here. */
  attempt_base: number;
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
  attemptCount(deliveryId: string): Promise<number>;
  appendAttempt(deliveryId: string, attempt: DeliveryAttempt): Promise<void>;
  /**
   * Moves a delivery to `delivered` or `retrying`. Refused (false) when it is already cancelled,
   * delivered or dead: a stop that landed during an attempt is never undone by the attempt's outcome.
   */
  setState(deliveryId: string, state: 'delivered' | 'retrying'): Promise<boolean>;
  /** Marks a delivery that is still pending or retrying as cancelled (stop_auto_reply); false if there is none. */
  cancel(deliveryId: string): Promise<boolean>;
  /** Dead-letters a pending or retrying delivery; refused (false) when it was cancelled meanwhile. */
  deadLetter(deliveryId: string, reason: DeadReason, atMs: number): Promise<boolean>;
  /** Takes a dead letter back for redelivery (fresh deadline and attempt budget); false if it is not dead. */
  revive(deliveryId: string, deadlineMs: number): Promise<boolean>;
  /** Undoes revive when the redelivery could not be queued. */
  bury(deliveryId: string, reason: DeadReason, atMs: number): Promise<void>;
  /** Dead letters, newest first. */
  listDead(offset: number, limit: number): Promise<DeliveryRecord[]>;
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
    attempt_base: Number(hash['attempt_base'] ?? 0),
  };
}

/** KEYS delivery, deadLetters; ARGV newState, deadReason, atMs. Only pending/retrying deliveries move. */
const TRANSITION = defineScript(`
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'pending' and state ~= 'retrying' then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
if ARGV[1] == 'dead' then
  redis.call('HSET', KEYS[1], 'dead_reason', ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[3], redis.call('HGET', KEYS[1], 'delivery_id'))
end
return 1
`);

/** KEYS delivery, conversationDeliveries; ARGV ttlS, keep, then field/value pairs. 1 = created, 0 = existed. */
const CREATE = defineScript(`
if redis.call('HSETNX', KEYS[1], 'delivery_id', ARGV[4]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[4])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[2]) - 1)
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
`);

/** KEYS delivery, deadLetters, attempts; ARGV deliveryId, deadlineMs. */
const REVIVE = defineScript(`
if redis.call('HGET', KEYS[1], 'state') ~= 'dead' then return 0 end
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'dead_reason', '', 'deadline_ms', ARGV[2], 'attempt_base', redis.call('LLEN', KEYS[3]))
return 1
`);

export function createDeliveryRecords(deps: { redis: Redis; keys: RedisKeys; ttlS: number }): DeliveryRecords {
  const { redis, keys, ttlS } = deps;
  const attemptsOf = async (id: string): Promise<DeliveryAttempt[]> =>
    (await redis.lrange(keys.deliveryAttempts(id), 0, -1)).map((json) => JSON.parse(json) as DeliveryAttempt);
  const get = async (id: string): Promise<DeliveryRecord | undefined> => parseRecord(await redis.hgetall(keys.delivery(id)));
  return {
    async create(record) {
      // delivery_id first: the script reads it as ARGV[4] (after ttl, keep and the field name).
      const fields = Object.entries({ ...record, in_reply_to: JSON.stringify(record.in_reply_to) })
        .sort(([a], [b]) => (a === 'delivery_id' ? -1 : b === 'delivery_id' ? 1 : 0))
        .flatMap(([field, value]) => [field, String(value)]);
      const created = await CREATE.run(redis, [keys.delivery(record.delivery_id), keys.conversationDeliveries(record.conversation_id)], [ttlS, KEEP_PER_CONVERSATION, ...fields]);
      return created === 1 ? record : ((await get(record.delivery_id)) ?? record);
    },
    get,
    attempts: attemptsOf,
    attemptCount: (id) => redis.llen(keys.deliveryAttempts(id)),
    async appendAttempt(id, attempt) {
      await redis.multi().rpush(keys.deliveryAttempts(id), JSON.stringify(attempt)).expire(keys.deliveryAttempts(id), ttlS).exec();
    },
    async setState(id, state) {
      return (await TRANSITION.run(redis, [keys.delivery(id), keys.deadLetters], [state, '', 0])) === 1;
    },
    async cancel(id) {
      return (await TRANSITION.run(redis, [keys.delivery(id), keys.deadLetters], ['cancelled', '', 0])) === 1;
    },
    async deadLetter(id, reason, atMs) {
      return (await TRANSITION.run(redis, [keys.delivery(id), keys.deadLetters], ['dead', reason, atMs])) === 1;
    },
    async revive(id, deadlineMs) {
      return (await REVIVE.run(redis, [keys.delivery(id), keys.deadLetters, keys.deliveryAttempts(id)], [id, deadlineMs])) === 1;
    },
    async bury(id, reason, atMs) {
      await redis.multi().hset(keys.delivery(id), { state: 'dead', dead_reason: reason }).zadd(keys.deadLetters, atMs, id).exec();
    },
    async listDead(offset, limit) {
      const ids = await redis.zrevrange(keys.deadLetters, offset, offset + limit - 1);
      const records = await Promise.all(ids.map(get));
      return records.filter((r): r is DeliveryRecord => r !== undefined);
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
