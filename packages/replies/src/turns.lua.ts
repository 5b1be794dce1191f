import { defineLuaScript } from '@dialog-relay/redis';

/**
 * The per-conversation turn protocol (docs/reply-protocol.md). A conversation has a generation G
 * and at most one live turn job, `${conversation}-${G}`. Due messages wait in its pending list; job G
 * takes them as a batch, delivers one reply, then advances G; if messages arrived meanwhile, job G+1
 * follows. Every step is one atomic script, so any number of API and worker replicas keep one order.
 */

export const SCHEDULE = defineLuaScript({
  name: 'schedule',
  keys: ['pending', 'since', 'oldest', 'generation', 'stop', 'paused', 'scheduled', 'waiting'],
  args: ['message', 'ttlMs', 'conversationId'],
  source: `
--[[ Queue one due message (API).
  Input:  KEYS[1] pending     list of JSON due messages
          KEYS[2] since       server ms of the latest due message (debounce)
          KEYS[3] oldest      server ms of the oldest unanswered message (debounce ceiling)
          KEYS[4] generation  the conversation's turn number
          KEYS[5] stop        set while auto reply is stopped
          KEYS[6] paused      set while a human's message pauses auto replies
          KEYS[7] scheduled   marker of this msg_id, so a retried request is never queued twice
          KEYS[8] waiting     the shard's sorted set of conversations with messages waiting
          ARGV[1] message     JSON due message
          ARGV[2] ttlMs       expiry of the pending keys
          ARGV[3] conversationId  (its member in KEYS[8], scored by the time it started waiting)
  Output: {'stopped'} | {'paused'} | {'queued', G} (G also when the msg_id was queued before, so
          the caller makes sure job G exists) ]]
if redis.call('EXISTS', KEYS[5]) == 1 then return {'stopped'} end
if redis.call('EXISTS', KEYS[6]) == 1 then return {'paused'} end
local g = redis.call('GET', KEYS[4])
if not g then g = '0'; redis.call('SET', KEYS[4], g) end
if not redis.call('SET', KEYS[7], '1', 'NX', 'PX', ARGV[2]) then return {'queued', g} end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('SET', KEYS[2], now, 'PX', ARGV[2])
redis.call('SET', KEYS[3], now, 'NX', 'PX', ARGV[2])
redis.call('ZADD', KEYS[8], 'NX', now, ARGV[3])
return {'queued', g}
`,
});

export const TAKE = defineLuaScript({
  name: 'take',
  keys: ['pending', 'since', 'oldest', 'generation', 'batch', 'stop', 'waiting'],
  args: ['generation', 'debounceMs', 'maxWaitMs', 'ttlMs', 'deliveryId', 'conversationId'],
  source: `
--[[ Job G starts (worker): take the due messages of this turn.
  Input:  KEYS[1] pending     KEYS[2] since     KEYS[3] oldest     KEYS[4] generation
          KEYS[5] batch       JSON {delivery_id, generation, count, messages} of the live turn
                              (count: how many messages, in a fixed header CANCEL reads without
                              decoding the messages, which carry their content)
          KEYS[6] stop        KEYS[7] waiting  (the conversation leaves it once nothing waits)
          ARGV[1] generation  G of the job
          ARGV[2] debounceMs  0: one message per reply
          ARGV[3] maxWaitMs   the debounce ceiling, from the oldest unanswered message
          ARGV[4] ttlMs       expiry of the batch
          ARGV[5] deliveryId  the id the reply gets if this call takes a new batch
          ARGV[6] conversationId
  Output: {'stale', current} | {'stopped'} | {'empty'} | {'wait', ms} | {'batch', json}
          A re-run (after a crash) finds the batch it took before, with its delivery id. ]]
local current = tonumber(redis.call('GET', KEYS[4]) or '0')
if current ~= tonumber(ARGV[1]) then return {'stale', tostring(current)} end
local existing = redis.call('GET', KEYS[5])
if existing then return {'batch', existing} end
if redis.call('EXISTS', KEYS[6]) == 1 then return {'stopped'} end
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[7], ARGV[6])
  return {'empty'}
end
local debounce = tonumber(ARGV[2])
local items
if debounce > 0 then
  local t = redis.call('TIME')
  local now = t[1] * 1000 + math.floor(t[2] / 1000)
  local quiet = debounce - (now - tonumber(redis.call('GET', KEYS[2]) or '0'))
  local ceiling = tonumber(ARGV[3]) - (now - tonumber(redis.call('GET', KEYS[3]) or '0'))
  if quiet > 0 and ceiling > 0 then return {'wait', tostring(math.min(quiet, ceiling))} end
  items = redis.call('LRANGE', KEYS[1], 0, -1)
  redis.call('DEL', KEYS[1], KEYS[3])
else
  items = {redis.call('LPOP', KEYS[1])}
end
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[3])
  redis.call('ZREM', KEYS[7], ARGV[6])
end
local json = '{"delivery_id":' .. cjson.encode(ARGV[5]) .. ',"generation":' .. ARGV[1] .. ',"count":' .. #items .. ',"messages":[' .. table.concat(items, ',') .. ']}'
redis.call('SET', KEYS[5], json, 'PX', ARGV[4])
return {'batch', json}
`,
});

export const FINISH = defineLuaScript({
  name: 'finish',
  keys: ['generation', 'batch', 'pending', 'stop', 'paused', 'oldest', 'waiting'],
  args: ['generation', 'pauseMs', 'conversationId'],
  source: `
--[[ Job G is done with its turn (delivered, dead-lettered, cancelled or given up) (worker).
  Input:  KEYS[1] generation  KEYS[2] batch  KEYS[3] pending  KEYS[4] stop
          KEYS[5] paused  KEYS[6] oldest  KEYS[7] waiting (the shard's conversations with messages waiting)
          ARGV[1] generation  G of the job
          ARGV[2] pauseMs  > 0: the turn's reply handed off (HANDOFF_PAUSE_S): auto replies pause this
                  long (a longer pause already set stays), and the messages that arrived meanwhile
                  are left to the person taking over (they are in the context)
          ARGV[3] conversationId  (its member in KEYS[7])
  Output: {'next', G'} (messages wait: add job G', idempotent by job id) | {'idle', G'} ]]
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current == tonumber(ARGV[1]) then
  current = redis.call('INCR', KEYS[1])
  redis.call('DEL', KEYS[2])
end
local pause = tonumber(ARGV[2])
if pause > 0 then
  local t = redis.call('TIME')
  local untilMs = t[1] * 1000 + math.floor(t[2] / 1000) + pause
  if tonumber(redis.call('GET', KEYS[5]) or '0') < untilMs then redis.call('SET', KEYS[5], untilMs, 'PX', pause) end
  redis.call('DEL', KEYS[3], KEYS[6])
  redis.call('ZREM', KEYS[7], ARGV[3])
end
if redis.call('LLEN', KEYS[3]) > 0 and redis.call('EXISTS', KEYS[4]) == 0 then return {'next', tostring(current)} end
return {'idle', tostring(current)}
`,
});

export const CANCEL = defineLuaScript({
  name: 'cancel',
  keys: ['stop', 'paused', 'pending', 'oldest', 'generation', 'batch', 'attempts', 'waiting', 'legacyAttempt'],
  args: ['stop', 'pauseMs', 'conversationId'],
  source: `
--[[ Cancel the conversation's unsent reply: stop_auto_reply, or a human's message (API).
  Input:  KEYS[1] stop  KEYS[2] paused  KEYS[3] pending  KEYS[4] oldest  KEYS[5] generation
          KEYS[6] batch  KEYS[7] attempts  (hash of the attempts in flight: delivery id -> until ms)
          KEYS[8] waiting  (the conversation leaves it: nothing waits any more)
          KEYS[9] legacyAttempt  (an attempt in flight as earlier versions marked it: its delivery id)
          ARGV[1] stop     '1' sets the stop flag (stop_auto_reply), '0' does not (a human's message)
          ARGV[2] pauseMs  > 0: pause auto replies this long (HUMAN_PAUSE_S)
          ARGV[3] conversationId
  Output: {cancelled messages, batch delivery id or '', {delivery ids of the attempts in flight},
           paused until ms or 0, the generation that was live, messages that were still waiting
           for their turn (not taken)}
          G advances, so a job of the old generation, whatever its state, can no longer deliver. ]]
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
if ARGV[1] == '1' then redis.call('SET', KEYS[1], '1') end
local until_ms = 0
if tonumber(ARGV[2]) > 0 then
  until_ms = now + tonumber(ARGV[2])
  redis.call('SET', KEYS[2], until_ms, 'PX', ARGV[2])
end
local waiting = redis.call('LLEN', KEYS[3])
local cancelled = waiting
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('ZREM', KEYS[8], ARGV[3])
local deliveryId = ''
-- The batch's header names its delivery id and size: read only that, not the messages' content.
local head = redis.call('GETRANGE', KEYS[6], 0, 299)
if head ~= '' then
  local id, count = string.match(head, '^{"delivery_id":"([%w_%-]*)","generation":%d+,"count":(%d+),')
  if id then
    cancelled = cancelled + tonumber(count)
    deliveryId = id
  else
    -- A batch taken before the header had its count (ids only, small), or a corrupt one.
    local ok, decoded = pcall(cjson.decode, redis.call('GET', KEYS[6]))
    if ok and type(decoded) == 'table' then
      cancelled = cancelled + #(decoded['messages'] or {})
      deliveryId = decoded['delivery_id'] or ''
    end
  end
  redis.call('DEL', KEYS[6])
end
local live = redis.call('GET', KEYS[5]) or '0'
redis.call('INCR', KEYS[5])
local inFlight = {}
local marked = redis.call('HGETALL', KEYS[7])
for i = 1, #marked, 2 do
  if tonumber(marked[i + 1]) > now then inFlight[#inFlight + 1] = marked[i] end
end
local legacy = redis.call('GET', KEYS[9])
if legacy then inFlight[#inFlight + 1] = legacy end
return {cancelled, deliveryId, inFlight, until_ms, live, waiting}
`,
});

export const BEGIN_ATTEMPT = defineLuaScript({
  name: 'begin-attempt',
  keys: ['stop', 'generation', 'attempts'],
  args: ['generation', 'deliveryId', 'ttlMs'],
  source: `
--[[ Right before a delivery attempt (worker).
  Input:  KEYS[1] stop  KEYS[2] generation
          KEYS[3] attempts  (hash of the attempts in flight: delivery id -> until ms; a turn's
                  attempt and operators' replays of the conversation can be in flight together)
          ARGV[1] generation  G of the job; '' for an operator's redelivery (not bound to the turn)
          ARGV[2] deliveryId  ARGV[3] ttlMs  (of the marker: longer than an attempt)
  Output: 1 (go) | 0 (cancelled: stopped, or the generation moved on). Checking and marking in
          one step is what makes "no attempt starts after the stop's answer" hold: a stop either
          comes first (0) or finds the marker (and aborts the attempt). Run again once the
          connection is open, before the request is written, when that abort may have been lost
          (it only renews the marker then). Markers whose
          time is up (a worker that died mid-attempt) are dropped. ]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[1] ~= '' and tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[1]) then return 0 end
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local marked = redis.call('HGETALL', KEYS[3])
for i = 1, #marked, 2 do
  if tonumber(marked[i + 1]) <= now then redis.call('HDEL', KEYS[3], marked[i]) end
end
redis.call('HSET', KEYS[3], ARGV[2], now + tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return 1
`,
});

export const END_ATTEMPT = defineLuaScript({
  name: 'end-attempt',
  keys: ['attempts'],
  args: ['deliveryId'],
  source: `
--[[ A delivery attempt ended (worker).
  Input:  KEYS[1] attempts  (hash of the attempts in flight)  ARGV[1] deliveryId
  Output: 1 (this attempt's marker was there and is gone) | 0 ]]
return redis.call('HDEL', KEYS[1], ARGV[1])
`,
});

export const CLAIM_OVERDUE = defineLuaScript({
  name: 'claim-overdue',
  keys: ['waiting'],
  args: ['olderThanMs', 'limit'],
  source: `
--[[ The safety net's sweep of one shard (worker): conversations whose messages have waited long.
  Input:  KEYS[1] waiting      the shard's sorted set of conversations with messages waiting
          ARGV[1] olderThanMs  how long (server ms) a conversation must have waited unchecked
          ARGV[2] limit        at most this many per call
  Output: the conversation ids. Each is scored again with now, so a concurrent sweep of another
          worker skips it and it is checked again only after another olderThanMs. ]]
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]), 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', now, id) end
return ids
`,
});

export const WAITING_TURN = defineLuaScript({
  name: 'waiting-turn',
  keys: ['pending', 'generation', 'stop', 'waiting'],
  args: ['conversationId'],
  source: `
--[[ Does a conversation found by the sweep still have messages waiting for a turn (worker)?
  Input:  KEYS[1] pending  KEYS[2] generation  KEYS[3] stop  KEYS[4] waiting
          ARGV[1] conversationId
  Output: {'due', G} (messages wait: job G must exist) | {'idle'} (nothing waits, or stopped: the
          conversation leaves the sorted set, e.g. after its pending list expired) ]]
if redis.call('LLEN', KEYS[1]) > 0 and redis.call('EXISTS', KEYS[3]) == 0 then
  return {'due', redis.call('GET', KEYS[2]) or '0'}
end
redis.call('ZREM', KEYS[4], ARGV[1])
return {'idle'}
`,
});

export const TURN_SCRIPTS = [SCHEDULE, TAKE, FINISH, CANCEL, BEGIN_ATTEMPT, END_ATTEMPT, CLAIM_OVERDUE, WAITING_TURN];
