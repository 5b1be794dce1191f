import { defineLuaPart, defineLuaScript } from '@dialog-relay/redis';

type Placeholders<N extends string> = Readonly<Record<N, string>>;

const admitLua = (k: Placeholders<'rateWindow' | 'guard'>, a: Placeholders<'limit' | 'mode' | 'ttlMs'>): string => `
local n = redis.call('INCR', ${k.rateWindow})
if n == 1 then redis.call('PEXPIRE', ${k.rateWindow}, '2000') end
if n > tonumber(${a.limit}) then return 'rate_limited' end
if ${a.mode} == 'idem-answered' then
  local existing = redis.call('GET', ${k.guard})
  if existing then return {'existing', existing} end
  -- COMPLETE stores the answer later in this same script, and no other request can run in
  -- between, so no claim is written for it to overwrite (COMPLETE reads shared.answered)
  shared.answered = true
  return 'admitted'
end
if ${a.mode} == 'idem' then
  -- a new msg_id is claimed by the SET itself; a taken one is read only then
  if redis.call('SET', ${k.guard}, 'pending', 'NX', 'PX', ${a.ttlMs}) then return 'admitted' end
  return {'existing', redis.call('GET', ${k.guard})}
end
if redis.call('SET', ${k.guard}, '1', 'NX', 'PX', ${a.ttlMs}) then return 'admitted' end
return 'replayed'
`;

export const ADMIT = defineLuaScript({
  name: 'admit',
  keys: ['rateWindow', 'guard'],
  args: ['limit', 'mode', 'ttlMs'],
  source: `
--[[ One round trip decides whether a signed request may be processed (API).
  1. fixed one-second window rate limit per client (INCR; the key lives 2 s);
  2a. mode 'idem' (a msg_id): an existing answer (or 'pending' while the first request is still
      being processed) is returned; otherwise the msg_id is claimed as 'pending' for ttlMs
      ('idem-answered', only as a part whose script also stores the answer: not claimed);
  2b. mode 'replay' (no msg_id): the request's digest is remembered for the timestamp window.
  Input:  KEYS[1] rateWindow  the client's counter of this second
          KEYS[2] guard       the idempotency key (idem) or the replay key (replay)
          ARGV[1] limit       requests per second
          ARGV[2] mode        'idem' | 'idem-answered' | 'replay'
          ARGV[3] ttlMs       claim / replay TTL
  Output: 'admitted' | 'rate_limited' | 'replayed' (words: a table in a reply costs Redis more
          than the command that made it) | {'existing', value} ]]
local shared = {}
${admitLua({ rateWindow: 'KEYS[1]', guard: 'KEYS[2]' }, { limit: 'ARGV[1]', mode: 'ARGV[2]', ttlMs: 'ARGV[3]' })}`,
});

/** ADMIT as the first part of a request's script (packages/chat composes it with the scenario's reads). */
export const ADMIT_PART = defineLuaPart({
  name: 'admit',
  does: 'rate window, then the msg_id claim or the replay marker (ADMIT)',
  keys: ['rateWindow', 'guard'],
  args: ['limit', 'mode', 'ttlMs'],
  output: "'admitted' | 'rate_limited' | 'replayed' | {'existing', value}",
  slot: 'client',
  // a request that is not admitted reads and writes nothing more: the parts after it do not run
  haltOn: ['rate_limited', 'replayed', 'existing'],
  lua: admitLua,
});

/** `claimed`: a Lua expression, true when the claim is known to be this request's without reading it. */
const completeLua = (k: Placeholders<'idempotency'>, a: Placeholders<'answer' | 'ttlMs'>, claimed = 'false'): string => `
if not ${claimed} and redis.call('GET', ${k.idempotency}) ~= 'pending' then return 0 end
redis.call('SET', ${k.idempotency}, ${a.answer}, 'PX', ${a.ttlMs})
return 1
`;

export const COMPLETE = defineLuaScript({
  name: 'complete',
  keys: ['idempotency'],
  args: ['answer', 'ttlMs'],
  source: `
--[[ Store the first answer to a msg_id, only while our claim is still there (it may have expired
  and been taken by a retry).
  Input:  KEYS[1] idempotency  ARGV[1] answer (JSON)  ARGV[2] ttlMs
  Output: 1 stored | 0 the claim was gone ]]
${completeLua({ idempotency: 'KEYS[1]' }, { answer: 'ARGV[1]', ttlMs: 'ARGV[2]' })}`,
});

/**
 * COMPLETE as the last part of a request's write script (after ADMIT_PART in 'idem-answered' mode,
 * in the same script: stored without checking the claim ADMIT did not write). The answer is `answerHead .. w .. answerTail`
 * where w is the word `outcomeWords` ('queued=queued,stopped=suppressed,…') gives for the outcome an
 * earlier part of the same script left in `shared.outcome` ('*': the outcome itself), or ''. An
 * empty answerHead (no msg_id) stores nothing. With '*' and no outcome left (a status whose reads
 * were too long to keep), the answer cannot be made here: nothing is stored, the msg_id is claimed
 * ('pending', claimTtlMs) where admission left it unclaimed, and 0 tells the caller to store the
 * answer itself (COMPLETE).
 */
export const COMPLETE_PART = defineLuaPart({
  name: 'complete',
  does: 'store the answer of a claimed msg_id (COMPLETE)',
  keys: ['idempotency'],
  args: ['answerHead', 'answerTail', 'outcomeWords', 'ttlMs', 'claimTtlMs'],
  output: "1 stored | 0 the claim was gone, no msg_id, or ('*' without an outcome) claimed for the caller to store",
  slot: 'client',
  lua: (k, a) => `
if ${a.answerHead} == '' then return 0 end
if ${a.outcomeWords} == '*' and not shared.outcome then
  if shared.answered then redis.call('SET', ${k.idempotency}, 'pending', 'PX', ${a.claimTtlMs}) end
  return 0
end
local word = ''
if shared.outcome and ${a.outcomeWords} == '*' then word = shared.outcome
elseif shared.outcome then word = string.match(',' .. ${a.outcomeWords} .. ',', ',' .. shared.outcome .. '=([%w_]*),') or '' end
local answer = ${a.answerHead} .. word .. ${a.answerTail}
${completeLua(k, { answer: 'answer', ttlMs: a.ttlMs }, 'shared.answered')}`,
});

export const RELEASE = defineLuaScript({
  name: 'release',
  keys: ['idempotency'],
  args: ['answerPrefix'],
  source: `
--[[ Give a msg_id claim back (the request failed), only if it is still a pending claim or holds the
  answer this request stored before it failed (its request id marks it).
  Input:  KEYS[1] idempotency
          ARGV[1] answerPrefix  the start of the answer this request may have stored ('' none)
  Output: 1 released | 0 ]]
local value = redis.call('GET', KEYS[1])
if value == 'pending' then return redis.call('DEL', KEYS[1]) end
if value and ARGV[1] ~= '' and string.sub(value, 1, string.len(ARGV[1])) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
});

export const ADMISSION_SCRIPTS = [ADMIT, COMPLETE, RELEASE];
