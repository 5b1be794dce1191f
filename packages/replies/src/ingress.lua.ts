import { defineLuaPart, defineLuaScript } from '@dialog-relay/redis';
import { STATUS_RECORD_FIELDS } from './delivery.store.js';

/**
 * The reply protocol's scripts the API runs (docs/design/reply-protocol.md): queue a due message, cancel
 * the unsent reply (stop, a human's message), resume, show the status. Each is a standalone script
 * and a part a request's script may carry (docs/design/lua-scripts.md "Composed scripts"), from one body.
 */

type Placeholders<N extends string> = Readonly<Record<N, string>>;
type ScheduleKey = 'pending' | 'since' | 'oldest' | 'generation' | 'batch' | 'stop' | 'paused' | 'scheduled' | 'waiting';
type ScheduleArg = 'message' | 'ttlMs' | 'conversationId' | 'maxPending';

/** Sets `shared.outcome` (queued | stopped | paused | full) for a later part of the same script. */
const scheduleLua = (k: Placeholders<ScheduleKey>, a: Placeholders<ScheduleArg>): string => `
-- stopped or paused: one read for both in the common case (neither), then which one
if redis.call('EXISTS', ${k.stop}, ${k.paused}) > 0 then
  if redis.call('EXISTS', ${k.stop}) == 1 then shared.outcome = 'stopped' return {'stopped'} end
  shared.outcome = 'paused'
  return {'paused'}
end
local g = redis.call('GET', ${k.generation})
if not g then g = '0'; redis.call('SET', ${k.generation}, g) end
shared.outcome = 'queued'
-- the msg_id's marker, checked and set in one command: a message queued before is not queued again
if not redis.call('SET', ${k.scheduled}, '1', 'NX', 'PX', ${a.ttlMs}) then return {'queued', g, 1} end
-- the push answers how many wait now: the messages that waited before it are one fewer
local waiting = redis.call('RPUSH', ${k.pending}, ${a.message}) - 1
local max = tonumber(${a.maxPending})
if max > 0 and waiting >= max then
  -- not queued: the message is taken back off the list (nothing ran in between: it is the last), and
  -- the marker goes, so a retry of this msg_id is refused again rather than called queued
  redis.call('RPOP', ${k.pending})
  redis.call('DEL', ${k.scheduled})
  shared.outcome = 'full'
  return {'full', max}
end
-- The message opens the turn when nothing waited and no batch is taken: only then may job G be missing.
local opens = 0
if waiting == 0 and redis.call('EXISTS', ${k.batch}) == 0 then opens = 1 end
redis.call('PEXPIRE', ${k.pending}, ${a.ttlMs})
local t = redis.call('TIME')
-- server ms as text, made of TIME's seconds and the first three of its six microsecond digits: a
-- number passed to a command would be formatted with %.17g (docs/design/lua-scripts.md)
local now = t[1] .. string.sub('00000' .. t[2], -6, -4)
redis.call('SET', ${k.since}, now, 'PX', ${a.ttlMs})
-- the debounce ceiling runs from the message that started the wait, set only by it (were the mark
-- gone while messages wait, its time would be long past the ceiling: the turn is taken at once)
if waiting == 0 then redis.call('SET', ${k.oldest}, now, 'NX', 'PX', ${a.ttlMs}) end
redis.call('ZADD', ${k.waiting}, 'NX', now, ${a.conversationId})
return {'queued', g, opens}
`;

const SCHEDULE_KEYS = ['pending', 'since', 'oldest', 'generation', 'batch', 'stop', 'paused', 'scheduled', 'waiting'] as const;
const SCHEDULE_ARGS = ['message', 'ttlMs', 'conversationId', 'maxPending'] as const;
const positions = <N extends string>(names: readonly N[], kind: 'KEYS' | 'ARGV'): Record<N, string> =>
  Object.fromEntries(names.map((name, i) => [name, `${kind}[${i + 1}]`])) as Record<N, string>;

export const SCHEDULE = defineLuaScript({
  name: 'schedule',
  keys: SCHEDULE_KEYS,
  args: SCHEDULE_ARGS,
  source: `
--[[ Queue one due message (API).
  Input:  KEYS[1] pending     list of JSON due messages
          KEYS[2] since       server ms of the latest due message (debounce)
          KEYS[3] oldest      server ms of the oldest unanswered message (debounce ceiling)
          KEYS[4] generation  the conversation's turn number
          KEYS[5] batch       the batch a turn has taken (its job G is live while it exists)
          KEYS[6] stop        set while auto reply is stopped
          KEYS[7] paused      set while a human's message pauses auto replies
          KEYS[8] scheduled   marker of this msg_id, so a retried request is never queued twice
          KEYS[9] waiting     the shard's sorted set of conversations with messages waiting
          ARGV[1] message     JSON due message
          ARGV[2] ttlMs       expiry of the pending keys
          ARGV[3] conversationId  (its member in KEYS[9], scored by the time it started waiting)
          ARGV[4] maxPending  messages that may wait at most (PENDING_MESSAGES_MAX; 0: no cap)
  Output: {'stopped'} | {'paused'} | {'full', maxPending} (nothing queued) | {'queued', G, opens}:
          opens 1 when the message opens the turn (nothing was waiting and no batch is taken), so the
          caller adds job G; 0 when a live job serves it (the job that serves the waiting messages or
          the taken batch, or the next one the worker adds when that turn ends); 1 also when the
          msg_id was queued before, so the caller makes sure job G exists ]]
local shared = {}
${scheduleLua(positions(SCHEDULE_KEYS, 'KEYS'), positions(SCHEDULE_ARGS, 'ARGV'))}`,
});

/** SCHEDULE as a part of auto_dialog's accept script; it ends the script when the conversation is full. */
export const SCHEDULE_PART = defineLuaPart({
  name: 'schedule',
  does: 'queue one due message (SCHEDULE)',
  keys: SCHEDULE_KEYS,
  args: SCHEDULE_ARGS,
  output: "{'stopped'} | {'paused'} | {'full', maxPending} | {'queued', G, opens}",
  slot: 'conversation',
  haltOn: ['full'],
  lua: scheduleLua,
});

type CancelKey = 'stop' | 'paused' | 'pending' | 'oldest' | 'generation' | 'batch' | 'attempts' | 'waiting';
const CANCEL_KEYS = ['stop', 'paused', 'pending', 'oldest', 'generation', 'batch', 'attempts', 'waiting'] as const;
const CANCEL_ARGS = ['stop', 'pauseMs', 'conversationId'] as const;

const cancelLua = (k: Placeholders<CancelKey>, a: Placeholders<(typeof CANCEL_ARGS)[number]>): string => `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
if ${a.stop} == '1' then redis.call('SET', ${k.stop}, '1') end
local until_ms = 0
if tonumber(${a.pauseMs}) > 0 then
  until_ms = now + tonumber(${a.pauseMs})
  redis.call('SET', ${k.paused}, string.format('%d', until_ms), 'PX', ${a.pauseMs})
end
local waiting = redis.call('LLEN', ${k.pending})
local cancelled = waiting
redis.call('DEL', ${k.pending}, ${k.oldest})
redis.call('ZREM', ${k.waiting}, ${a.conversationId})
local deliveryId = ''
-- The batch's header names its delivery id and size: read only that, not the messages' content.
local head = redis.call('GETRANGE', ${k.batch}, '0', '299')
if head ~= '' then
  local id, count = string.match(head, '^{"delivery_id":"([%w_%-]*)","generation":%d+,"count":(%d+),')
  -- Without the header (a corrupt batch) the batch is dropped with nothing to name.
  if id then
    cancelled = cancelled + tonumber(count)
    deliveryId = id
  end
  redis.call('DEL', ${k.batch})
end
local live = redis.call('GET', ${k.generation}) or '0'
redis.call('INCR', ${k.generation})
local inFlight = {}
local marked = redis.call('HGETALL', ${k.attempts})
for i = 1, #marked, 2 do
  if tonumber(marked[i + 1]) > now then inFlight[#inFlight + 1] = marked[i] end
end
shared.outcome = tostring(cancelled)
return {cancelled, deliveryId, inFlight, until_ms, live, waiting}
`;

export const CANCEL = defineLuaScript({
  name: 'cancel',
  keys: CANCEL_KEYS,
  args: CANCEL_ARGS,
  source: `
--[[ Cancel the conversation's unsent reply: stop_auto_reply, or a human's message (API).
  Input:  KEYS[1] stop  KEYS[2] paused  KEYS[3] pending  KEYS[4] oldest  KEYS[5] generation
          KEYS[6] batch  KEYS[7] attempts  (hash of the attempts in flight: delivery id -> until ms)
          KEYS[8] waiting  (the conversation leaves it: nothing waits any more)
          ARGV[1] stop     '1' sets the stop flag (stop_auto_reply), '0' does not (a human's message)
          ARGV[2] pauseMs  > 0: pause auto replies this long (HUMAN_PAUSE_S)
          ARGV[3] conversationId
  Output: {cancelled messages, batch delivery id or '', {delivery ids of the attempts in flight},
           paused until ms or 0, the generation that was live, messages that were still waiting
           for their turn (not taken)}
          G advances, so a job of the old generation, whatever its state, can no longer deliver. ]]
local shared = {}
${cancelLua(positions(CANCEL_KEYS, 'KEYS'), positions(CANCEL_ARGS, 'ARGV'))}`,
});

/** CANCEL as a part of a request's write script (stop_auto_reply with its idempotent answer). */
export const CANCEL_PART = defineLuaPart({
  name: 'cancel',
  does: "cancel the conversation's unsent reply (CANCEL; shared.outcome: the messages cancelled)",
  keys: CANCEL_KEYS,
  args: CANCEL_ARGS,
  output: '{cancelled, batch delivery id, {in flight}, paused until, live generation, waiting}',
  slot: 'conversation',
  lua: cancelLua,
});

/** resume_auto_reply as a part of a request's write script. */
export const RESUME_PART = defineLuaPart({
  name: 'resume',
  does: "clear the conversation's stop flag and its pause, a human's or a handoff's (resume_auto_reply, docs/service-rules.md §17)",
  keys: ['stop', 'paused'],
  args: [],
  output: 'keys cleared (0: neither stopped nor paused)',
  slot: 'conversation',
  lua: (k) => `return redis.call('DEL', ${k.stop}, ${k.paused})`,
});

/**
 * Everything auto_reply_status shows, as a part of the request's first script. The delivery records
 * are named by the conversation's delivery list, so the part builds their keys inside (the one
 * exception to "every key passed in", docs/design/lua-scripts.md): only for ids made in the conversation's
 * own shard (they end with shardSuffix, so their keys carry the same hash tag and slot); any other
 * (a delivery made before a QUEUE_SHARDS change) comes back as its id alone for the caller to read.
 * Of a record it reads only the fields a status shows (STATUS_RECORD_FIELDS, not the payload).
 * `keep` 'reads' (a setting): the reads are also left, as JSON, in `shared.outcome`, where the
 * request's COMPLETE part stores them as its idempotent answer in the same script (a status with a
 * msg_id), unless their JSON is longer than `keptMax` bytes (a setting): then nothing is left, and
 * COMPLETE leaves the answer to the caller (the stored answer stays about as small as the status).
 */
export const STATUS_PART = defineLuaPart({
  name: 'status',
  does: 'read the stop flag, the pause, the waiting messages, the turn and the latest deliveries with their attempts',
  keys: ['stop', 'paused', 'pending', 'batch', 'deliveries'],
  args: ['limit', 'keep', 'keptMax', 'deliveryPrefix', 'shardSuffix'],
  output:
    "{stopped 0|1, paused until | false, {pending JSON}, batch JSON | false, {{id, {shown record fields}, {attempts JSON}} | {id}}} (keep 'reads': shared.outcome, the same as JSON, when at most keptMax bytes)",
  slot: 'conversation',
  derivedKeys:
    "deliveryPrefix .. id (the record) and .. ':attempts' for each listed id ending with shardSuffix: same hash tag as the declared keys",
  lua: (k, a) => `
local ids = redis.call('LRANGE', ${k.deliveries}, '0', string.format('%d', ${a.limit} - 1))
local views = {}
local suffix = ${a.shardSuffix}
for i = 1, #ids do
  local id = ids[i]
  if string.sub(id, -string.len(suffix)) == suffix then
    local derivedRecord = ${a.deliveryPrefix} .. id
    local derivedAttempts = derivedRecord .. ':attempts'
    views[i] = {id, redis.call('HMGET', derivedRecord, ${STATUS_RECORD_FIELDS.map((f) => `'${f}'`).join(', ')}), redis.call('LRANGE', derivedAttempts, '0', '-1')}
  else
    views[i] = {id}
  end
end
local reads = {redis.call('EXISTS', ${k.stop}), redis.call('GET', ${k.paused}), redis.call('LRANGE', ${k.pending}, '0', '-1'), redis.call('GET', ${k.batch}), views}
if ${a.keep} == 'reads' then
  local json = cjson.encode(reads)
  if string.len(json) <= tonumber(${a.keptMax}) then shared.outcome = json end
end
return reads
`,
});
