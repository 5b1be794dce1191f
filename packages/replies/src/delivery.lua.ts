import { defineLuaScript } from '@dialog-relay/redis';

/** The delivery records' state changes (docs/design/reply-protocol.md), each one atomic. */

export const CREATE = defineLuaScript({
  name: 'create-delivery',
  keys: ['delivery', 'conversationDeliveries'],
  args: ['ttlS', 'keep', 'deliveryId'],
  source: `
--[[ Store a new delivery record unless it exists (a re-run after a crash keeps the first reply).
  Input:  KEYS[1] delivery                hash of the record
          KEYS[2] conversationDeliveries  list of the conversation's latest delivery ids
          ARGV[1] ttlS  ARGV[2] keep (ids kept per conversation)  ARGV[3] deliveryId
          ARGV[4..] field, value pairs of the record
  Output: 1 created | 0 existed ]]
if redis.call('HSETNX', KEYS[1], 'delivery_id', ARGV[3]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], '0', string.format('%d', ARGV[2] - 1))
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
`,
});

export const TRANSITION = defineLuaScript({
  name: 'transition-delivery',
  keys: ['delivery', 'deadLetters', 'attempts'],
  args: ['state', 'reason', 'detail', 'atMs', 'deadTtlS'],
  source: `
--[[ Move a pending or retrying delivery to a new state; any other state is final.
  Input:  KEYS[1] delivery  KEYS[2] deadLetters (sorted set of dead ids by time)
          KEYS[3] attempts (list of attempt records)
          ARGV[1] state (delivered | retrying | cancelled | dead)
          ARGV[2] reason  ARGV[3] detail  ARGV[4] atMs
          ARGV[5] deadTtlS (for dead: the record and its attempts are kept this long from now)
  Output: 1 moved | 0 refused (already delivered, dead or cancelled: a stop that landed during an
          attempt is never undone by the attempt's outcome) ]]
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'pending' and state ~= 'retrying' then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
if ARGV[1] == 'dead' then
  redis.call('HSET', KEYS[1], 'dead_reason', ARGV[2], 'dead_detail', ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[4], redis.call('HGET', KEYS[1], 'delivery_id'))
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  redis.call('EXPIRE', KEYS[3], ARGV[5])
end
return 1
`,
});

export const REVIVE = defineLuaScript({
  name: 'revive-delivery',
  keys: ['delivery', 'deadLetters', 'attempts'],
  args: ['deliveryId', 'deadlineMs', 'ttlS'],
  source: `
--[[ Take a dead letter back for redelivery: fresh deadline, attempt budget and expiry (the record
  must outlive its redelivery, however little of its dead-letter retention was left).
  Input:  KEYS[1] delivery  KEYS[2] deadLetters  KEYS[3] attempts (list of attempt records)
          ARGV[1] deliveryId  ARGV[2] deadlineMs  ARGV[3] ttlS (the record and its attempts, from now)
  Output: 1 revived | 0 not dead (or taken by another operator) ]]
if redis.call('HGET', KEYS[1], 'state') ~= 'dead' then return 0 end
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', 'pending', 'dead_reason', '', 'dead_detail', '', 'deadline_ms', ARGV[2], 'attempt_base', redis.call('LLEN', KEYS[3]))
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[3])
return 1
`,
});

export const BURY = defineLuaScript({
  name: 'bury-delivery',
  keys: ['delivery', 'deadLetters'],
  args: ['deliveryId', 'reason', 'detail', 'atMs'],
  source: `
--[[ Undo a revive whose redelivery could not be queued.
  Input:  KEYS[1] delivery  KEYS[2] deadLetters
          ARGV[1] deliveryId  ARGV[2] reason  ARGV[3] detail  ARGV[4] atMs
  Output: 1 ]]
redis.call('HSET', KEYS[1], 'state', 'dead', 'dead_reason', ARGV[2], 'dead_detail', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
return 1
`,
});

export const APPEND_ATTEMPT = defineLuaScript({
  name: 'append-delivery-attempt',
  keys: ['attempts'],
  args: ['ttlS', 'attempt'],
  source: `
--[[ Add one attempt to a delivery's log; keep the log at least ttlS, never cut a longer expiry
  (a dead letter's or a replayed one's) back.
  Input:  KEYS[1] attempts (list of attempt records)
          ARGV[1] ttlS  ARGV[2] attempt (JSON)
  Output: the log's length ]]
local length = redis.call('RPUSH', KEYS[1], ARGV[2])
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return length
`,
});

export const DELIVERY_SCRIPTS = [CREATE, TRANSITION, REVIVE, BURY, APPEND_ATTEMPT];
