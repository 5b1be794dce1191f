/**
 * One round trip decides whether a signed request may be processed:
 *   1. fixed one-second window rate limit per client (INCR; the key lives 2 s);
 *   2a. with a msg_id: idempotency — an existing answer (or "pending" while the first request is
 *       still being processed) is returned; otherwise the msg_id is claimed as "pending" for a short time;
 *   2b. without a msg_id: replay refusal — the request's digest is remembered for the timestamp window.
 * KEYS[1] rate window key, KEYS[2] idempotency or replay key
 * ARGV[1] limit per second, ARGV[2] 'idem' | 'replay', ARGV[3] claim / replay TTL in ms
 * Returns {'admitted'} | {'rate_limited', pttl} | {'replayed'} | {'existing', value}
 */
export const ADMIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], 2000) end
if n > tonumber(ARGV[1]) then return {'rate_limited'} end
if ARGV[2] == 'idem' then
  local existing = redis.call('GET', KEYS[2])
  if existing then return {'existing', existing} end
  redis.call('SET', KEYS[2], 'pending', 'PX', ARGV[3])
  return {'admitted'}
end
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[3]) then return {'admitted'} end
return {'replayed'}
`;

/** Stores the answer only while our claim is still there (it may have expired and been taken by a retry). */
export const COMPLETE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= 'pending' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

/** Gives the claim back (the request failed), only if it is still a pending claim. */
export const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == 'pending' then return redis.call('DEL', KEYS[1]) end
return 0
`;
