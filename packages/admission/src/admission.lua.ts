import { defineLuaScript } from '@dialog-relay/redis';

export const ADMIT = defineLuaScript({
  name: 'admit',
  keys: ['rateWindow', 'guard'],
  args: ['limit', 'mode', 'ttlMs'],
  source: `
--[[ One round trip decides whether a signed request may be processed (API).
  1. fixed one-second window rate limit per client (INCR; the key lives 2 s);
  2a. mode 'idem' (a msg_id): an existing answer (or 'pending' while the first request is still
      being processed) is returned; otherwise the msg_id is claimed as 'pending' for ttlMs;
  2b. mode 'replay' (no msg_id): the request's digest is remembered for the timestamp window.
  Input:  KEYS[1] rateWindow  the client's counter of this second
          KEYS[2] guard       the idempotency key (idem) or the replay key (replay)
          ARGV[1] limit       requests per second
          ARGV[2] mode        'idem' | 'replay'
          ARGV[3] ttlMs       claim / replay TTL
  Output: {'admitted'} | {'rate_limited'} | {'replayed'} | {'existing', value} ]]
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
`,
});

export const COMPLETE = defineLuaScript({
  name: 'complete',
  keys: ['idempotency'],
  args: ['answer', 'ttlMs'],
  source: `
--[[ Store the first answer to a msg_id, only while our claim is still there (it may have expired
  and been taken by a retry).
  Input:  KEYS[1] idempotency  ARGV[1] answer (JSON)  ARGV[2] ttlMs
  Output: 1 stored | 0 the claim was gone ]]
if redis.call('GET', KEYS[1]) ~= 'pending' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`,
});

export const RELEASE = defineLuaScript({
  name: 'release',
  keys: ['idempotency'],
  args: [],
  source: `
--[[ Give a msg_id claim back (the request failed), only if it is still a pending claim.
  Input:  KEYS[1] idempotency
  Output: 1 released | 0 ]]
if redis.call('GET', KEYS[1]) == 'pending' then return redis.call('DEL', KEYS[1]) end
return 0
`,
});

export const ADMISSION_SCRIPTS = [ADMIT, COMPLETE, RELEASE];
