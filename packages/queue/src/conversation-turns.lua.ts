/**
 * The per-conversation reply protocol. A conversation has a generation G and at most one live
 * reply job, `${conversation}-${G}`. Due messages wait in its pending list; job G takes them as a
 * batch, delivers one reply, then advances G and, if messages arrived meanwhile, job G+1 follows.
 * Every step is one atomic script, so any number of API and worker replicas keep one order.
 */

/**
 * API: KEYS pending, pendingSince, generation, stop, scheduledMessage; ARGV json, ttlMs
 * → {'stopped'} | {'queued', G}. A msg_id already queued is not queued again (a retried request),
 * but G is still returned so the caller makes sure its job exists.
 */
export const SCHEDULE = `
if redis.call('EXISTS', KEYS[4]) == 1 then return {'stopped'} end
local g = redis.call('GET', KEYS[3])
if not g then g = '0'; redis.call('SET', KEYS[3], g) end
if not redis.call('SET', KEYS[5], '1', 'NX', 'PX', ARGV[2]) then return {'queued', g} end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local t = redis.call('TIME')
redis.call('SET', KEYS[2], t[1] * 1000 + math.floor(t[2] / 1000), 'PX', ARGV[2])
return {'queued', g}
`;

/**
 * Worker, job G starts: KEYS pending, pendingSince, generation, batch(G), stop
 * ARGV G, debounceMs, ttlMs
 * → {'stale', current} | {'stopped'} | {'empty'} | {'wait', ms} | {'batch', json}
 * With debounce 0 each message gets its own reply (one per job); else all pending messages at once
 * once none has arrived for debounceMs.
 */
export const TAKE = `
local current = tonumber(redis.call('GET', KEYS[3]) or '0')
if current ~= tonumber(ARGV[1]) then return {'stale', tostring(current)} end
local existing = redis.call('GET', KEYS[4])
if existing then return {'batch', existing} end
if redis.call('EXISTS', KEYS[5]) == 1 then return {'stopped'} end
if redis.call('LLEN', KEYS[1]) == 0 then return {'empty'} end
local debounce = tonumber(ARGV[2])
local items
if debounce > 0 then
  local t = redis.call('TIME')
  local now = t[1] * 1000 + math.floor(t[2] / 1000)
  local last = tonumber(redis.call('GET', KEYS[2]) or '0')
  if now - last < debounce then return {'wait', tostring(debounce - (now - last))} end
  items = redis.call('LRANGE', KEYS[1], 0, -1)
  redis.call('DEL', KEYS[1])
else
  items = {redis.call('LPOP', KEYS[1])}
end
local json = '[' .. table.concat(items, ',') .. ']'
redis.call('SET', KEYS[4], json, 'PX', ARGV[3])
return {'batch', json}
`;

/**
 * Worker, job G is done with its batch (delivered, dead-lettered or cancelled):
 * KEYS generation, batch(G), pending, stop; ARGV G → {'next', G+1} | {'idle', current}
 * 'next' means: messages are waiting, add job G+1 (idempotent by job id).
 */
export const FINISH = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current == tonumber(ARGV[1]) then
  current = redis.call('INCR', KEYS[1])
  redis.call('DEL', KEYS[2])
end
if redis.call('LLEN', KEYS[3]) > 0 and redis.call('EXISTS', KEYS[4]) == 0 then return {'next', tostring(current)} end
return {'idle', tostring(current)}
`;

/**
 * cmd_dialog stop_auto_reply: KEYS stop, pending, generation, batchPrefix (without the G)
 * → {cancelled messages, G that was live}. Sets the flag, drops pending messages and the live
 * batch, and advances G so that a job of the old generation, whatever its state, can no longer deliver.
 */
export const STOP = `
redis.call('SET', KEYS[1], '1')
local cancelled = redis.call('LLEN', KEYS[2])
redis.call('DEL', KEYS[2])
local g = redis.call('GET', KEYS[3]) or '0'
local batchKey = KEYS[4] .. g
local batch = redis.call('GET', batchKey)
if batch then
  cancelled = cancelled + #cjson.decode(batch)
  redis.call('DEL', batchKey)
end
redis.call('INCR', KEYS[3])
return {cancelled, g}
`;

/**
 * Worker, right before a delivery attempt: KEYS stop, generation, attemptInFlight; ARGV G, deliveryId, ttlMs
 * → 1 (go) | 0 (cancelled: stopped, or the generation moved on; G '' skips that check, for redeliveries). The in-flight marker lets
 * stop_auto_reply wait until no attempt is running before it answers.
 */
export const BEGIN_ATTEMPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[1] ~= '' and tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3])
return 1
`;

/** KEYS attemptInFlight; ARGV deliveryId */
export const END_ATTEMPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
