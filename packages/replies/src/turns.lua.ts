import { defineLuaScript } from '@dialog-relay/redis';
import {
  CARRIER_PATTERN,
  endTurnLua,
  EXAMPLE_TAKE_SETTINGS,
  markAttemptLua,
  takeBatchLua,
  takeSettingsLua,
  type TakeSettings,
} from './attempt.lua.js';
import { reachLua } from './reach.lua.js';
import type { ContextReach } from './turn.store.js';
import { CANCEL, SCHEDULE } from './ingress.lua.js';

export { CANCEL, SCHEDULE };

/**
 * The per-conversation turn protocol (docs/design/reply-protocol.md). A conversation has a generation G
 * and at most one live turn job, `${conversation}-${G}`. Due messages wait in its pending list; job G
 * takes them as a batch, delivers one reply, then advances G; if messages arrived meanwhile, job G+1
 * follows. Every step is one atomic script, so any number of API and worker replicas keep one order.
 */

/**
 * TAKE with `settings` and the engine's `reach` in its text: made once by a turn store (once per reach
 * it is asked for), whose every call passes only what changes.
 */
export const takeScript = (settings: TakeSettings, reach: ContextReach = {}) =>
  defineLuaScript({
    name: 'take',
    keys: [
      'pending',
      'since',
      'oldest',
      'generation',
      'batch',
      'stop',
      'waiting',
      'attempts',
      'order',
      'messages',
      'jobsWaiting',
      'jobsPrioritized',
      'jobsMarker',
    ],
    args: ['generation', 'deliveryId', 'conversationId'],
    source: `
--[[ Job G starts (worker): take the due messages of this turn, and open the reply's attempt.
  Input:  KEYS[1] pending     KEYS[2] since     KEYS[3] oldest     KEYS[4] generation
          KEYS[5] batch       JSON {delivery_id, generation, count, carrier, messages} of the live turn
                              (count: how many messages, in a fixed header CANCEL reads without
                              decoding the messages, which carry their content; carrier: the
                              generation of the job serving it, G, or an earlier job's that went on
                              to this turn in SETTLE)
          KEYS[6] stop        KEYS[7] waiting  (the conversation leaves it once nothing waits)
          KEYS[8] attempts    hash of the attempts in flight: delivery id -> until ms
          KEYS[9] order       KEYS[10] messages  (the conversation's context)
          KEYS[11] jobsWaiting  KEYS[12] jobsPrioritized  KEYS[13] jobsMarker: the shard queue's
                  waiting and prioritized jobs and the marker its workers' blocking reads wait on.
                  BullMQ's moveToActive, which handed this job over, always leaves the marker's
                  member '0' behind; with no job waiting, the worker's next blocking read would
                  return at once and its moveToActive find nothing. It is dropped here then (a job
                  added later writes it again).
          ARGV[1] generation  G of the job
          ARGV[2] deliveryId  the id the reply gets if this call takes a new batch
          ARGV[3] conversationId
  Settings, written into this text by the turn store that runs it (the same for every call):
          debounceMs (0: one message per reply), maxWaitMs (the debounce ceiling, from the oldest
          unanswered message), batchTtlMs (expiry of the batch), markerTtlMs (of the in-flight marker);
          the engine's reach: contextWindow, the context messages it reads before the message it
          answers ('' all: the context is read from that many before the batch's newest message,
          and after it only the bot's replies), and contextCustomers, '' or, for an engine that
          reads only the customer's texts, how many of the customer's messages with text it reads
          before the message (readHistoryLua)
  Output: {'stale', current} | {'stopped'} | {'empty'} | {'wait', ms} | {'batch', json}
          | {'carried'}: the live batch is served by another job (the job that went on to it), this
          one has nothing to do
          | {'taken', json, context}: a batch taken now, its attempt marked in flight (the
          generation and the stop checked in the same step, as OPEN_ATTEMPT does) and the
          conversation's context read, so the reply is produced and sent without another call.
          A re-run (after a crash, a retry's wait) finds the batch it took or went on to before,
          with its delivery id ('batch', also when the generation is past G: the batch names G as
          its carrier): the caller opens its attempt with OPEN_ATTEMPT. ]]${takeSettingsLua(settings)}${reachLua(reach)}
if redis.call('LLEN', KEYS[11]) == 0 and redis.call('ZCARD', KEYS[12]) == 0 then redis.call('ZREM', KEYS[13], '0') end
local current = tonumber(redis.call('GET', KEYS[4]) or '0')
local existing = redis.call('GET', KEYS[5])
local carrier
if existing then carrier = tonumber(string.match(existing, ${CARRIER_PATTERN}) or current) end
if current ~= tonumber(ARGV[1]) then
  if existing and carrier == tonumber(ARGV[1]) then return {'batch', existing} end
  return {'stale', tostring(current)}
end
if existing then
  if carrier ~= current then return {'carried'} end
  return {'batch', existing}
end
if redis.call('EXISTS', KEYS[6]) == 1 then return {'stopped'} end
${takeBatchLua(
  {
    pending: 'KEYS[1]',
    since: 'KEYS[2]',
    oldest: 'KEYS[3]',
    batch: 'KEYS[5]',
    waiting: 'KEYS[7]',
    attempts: 'KEYS[8]',
    order: 'KEYS[9]',
    messages: 'KEYS[10]',
  },
  {
    generation: 'ARGV[1]',
    debounceMs: 'debounceMs',
    maxWaitMs: 'maxWaitMs',
    ttlMs: 'batchTtlMs',
    deliveryId: 'ARGV[2]',
    conversationId: 'ARGV[3]',
    markerTtlMs: 'markerTtlMs',
    carrier: 'ARGV[1]',
    contextWindow: 'contextWindow',
    contextCustomers: 'contextCustomers',
  },
)}
if took == 'wait' then return {'wait', string.format('%d', waitMs)} end
if took == 'empty' then return {'empty'} end
return {'taken', json, context}
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
${endTurnLua({ generation: 'KEYS[1]', batch: 'KEYS[2]', pending: 'KEYS[3]', stop: 'KEYS[4]', paused: 'KEYS[5]', oldest: 'KEYS[6]', waiting: 'KEYS[7]' }, { generation: 'ARGV[1]', pauseMs: 'ARGV[2]', conversationId: 'ARGV[3]' })}
return {turn, string.format('%d', current)}
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
${markAttemptLua('KEYS[3]', 'ARGV[2]', 'now', 'ARGV[3]')}
return 1
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
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now - ARGV[1]), 'LIMIT', '0', ARGV[2])
local nowText = string.format('%d', now)
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], 'XX', nowText, id) end
return ids
`,
});

export const WAITING_TURN = defineLuaScript({
  name: 'waiting-turn',
  keys: ['pending', 'generation', 'stop', 'waiting', 'batch'],
  args: ['conversationId'],
  source: `
--[[ Does a conversation found by the sweep still have messages waiting for a turn (worker)?
  Input:  KEYS[1] pending  KEYS[2] generation  KEYS[3] stop  KEYS[4] waiting
          KEYS[5] batch  (its fixed header names the generation of the job serving it)
          ARGV[1] conversationId
  Output: {'due', G} (messages wait: job G must exist: the job serving the live batch, else the job
          of the current generation) | {'idle'} (nothing waits, or stopped: the conversation leaves
          the sorted set, e.g. after its pending list expired) ]]
if redis.call('LLEN', KEYS[1]) > 0 and redis.call('EXISTS', KEYS[3]) == 0 then
  local carrier = string.match(redis.call('GETRANGE', KEYS[5], '0', '299'), ${CARRIER_PATTERN})
  return {'due', carrier or redis.call('GET', KEYS[2]) or '0'}
end
redis.call('ZREM', KEYS[4], ARGV[1])
return {'idle'}
`,
});

/** What the worker's sweep for waiting messages runs (turn-sweeper.ts): a timer's scripts, not a reply's (the command budgets leave them out). */
export const SWEEP_SCRIPTS = [CLAIM_OVERDUE, WAITING_TURN];

export const TURN_SCRIPTS = [SCHEDULE, takeScript(EXAMPLE_TAKE_SETTINGS), FINISH, CANCEL, BEGIN_ATTEMPT, ...SWEEP_SCRIPTS];
