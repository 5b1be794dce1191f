import { appendContextLua, readContextLua, readHistoryLua } from '@dialog-relay/conversations';
import { defineLuaScript, luaText } from '@dialog-relay/redis';
import { reachLua } from './reach.lua.js';
import type { ContextReach } from './turn.store.js';
import { KEEP_PER_CONVERSATION, RECORD_FIELDS } from './reply.types.js';

type RecordField = (typeof RECORD_FIELDS)[number];
/**
 * A produced record's fields as SETTLE takes them after its named arguments: all but its delivery id
 * and conversation id, which are SETTLE's own `deliveryId` and `conversationId` (each argument costs
 * Redis its conversion to a Lua string; docs/design/lua-scripts.md).
 */
export const SETTLE_RECORD_FIELDS = RECORD_FIELDS.filter((field) => field !== 'delivery_id' && field !== 'conversation_id');
/** ARGV position of a produced record's field in SETTLE. */
const recordArg = (field: RecordField): string => {
  if (field === 'delivery_id') return `ARGV[${SETTLE_ARGS.indexOf('deliveryId') + 1}]`;
  if (field === 'conversation_id') return `ARGV[${SETTLE_ARGS.indexOf('conversationId') + 1}]`;
  return `ARGV[${SETTLE_ARGS.length + 1 + SETTLE_RECORD_FIELDS.indexOf(field)}]`;
};
/** The HSET arguments of a produced record, the names written here (a call carries the values), its state the Lua expression `state`; handoff apart. */
const recordHsetArgs = (state: string): string =>
  RECORD_FIELDS.filter((field) => field !== 'handoff')
    .map((field) => `'${field}', ${field === 'state' ? state : recordArg(field)}`)
    .join(',\n    ');

/**
 * The worker's two other steps of a reply (docs/design/reply-protocol.md, "Round trips of a reply"): open
 * an attempt on a reply taken before (a retry, a re-run, an operator's redelivery), and settle an
 * attempt (its record, its log, the context and the end of the turn in one step). TAKE opens the
 * attempt of a batch it takes (turns.lua.ts), so a reply delivered at its first attempt costs two
 * scripts: TAKE and SETTLE.
 */

/**
 * Lua shared by the scripts that mark an attempt in flight (TAKE, OPEN_ATTEMPT, BEGIN_ATTEMPT, SETTLE
 * going on): drops the markers whose time is up (a worker that died mid-attempt) and marks `id`
 * until now + ttl. `sweep` false (SETTLE going on) leaves the drop to the next script that marks:
 * every reader compares a marker's time (CANCEL names only live ones), and the hash expires a
 * marker's ttl after the last marking, so one left a while longer changes nothing. Written out with
 * the script's own KEYS[i] (docs/design/lua-scripts.md: every key a call takes is a KEYS[i] itself).
 * `now` is a Lua number, `ttlText` the marker's ttl in ms as text (an ARGV): what reaches a command
 * is text (docs/design/lua-scripts.md, "Text, not numbers").
 */
export const markAttemptLua = (attempts: string, id: string, now: string, ttlText: string, sweep = true): string => `
do${
  sweep
    ? `
  local marked = redis.call('HGETALL', ${attempts})
  for i = 1, #marked, 2 do
    if tonumber(marked[i + 1]) <= ${now} then redis.call('HDEL', ${attempts}, marked[i]) end
  end`
    : ''
}
  redis.call('HSET', ${attempts}, ${id}, string.format('%d', ${now} + ${ttlText}))
  redis.call('PEXPIRE', ${attempts}, ${ttlText})
end`;

/**
 * What a script that takes a turn (TAKE, and SETTLE going on) writes into its text: the turn store's
 * timings (docs/design/lua-scripts.md, "Settings in the text").
 */
export interface TakeSettings {
  debounceMs: number;
  maxWaitMs: number;
  batchTtlMs: number;
  markerTtlMs: number;
}

/** The Lua locals of TakeSettings, as text (luaText), named as takeBatchLua's callers pass them. */
export const takeSettingsLua = (settings: TakeSettings): string => `
local debounceMs, maxWaitMs = ${luaText(settings.debounceMs)}, ${luaText(settings.maxWaitMs)}
local batchTtlMs, markerTtlMs = ${luaText(settings.batchTtlMs)}, ${luaText(settings.markerTtlMs)}`;

/** Settings for the checks of every script (REPLY_SCRIPTS), where a store makes its own. */
export const EXAMPLE_TAKE_SETTINGS: TakeSettings = { debounceMs: 1000, maxWaitMs: 5000, batchTtlMs: 86_400_000, markerTtlMs: 15_000 };

/** The keys and arguments of `takeBatchLua`, by name. */
type TakeKeys = Readonly<Record<'pending' | 'since' | 'oldest' | 'batch' | 'waiting' | 'attempts' | 'order' | 'messages', string>>;
type TakeArgs = Readonly<
  Record<
    | 'generation'
    | 'debounceMs'
    | 'maxWaitMs'
    | 'ttlMs'
    | 'deliveryId'
    | 'conversationId'
    | 'markerTtlMs'
    | 'carrier'
    | 'contextWindow'
    | 'contextCustomers',
    string
  >
> & {
  /** A Lua expression of the pending list's length when the caller has read it in this call (SETTLE: endTurnLua's `pendingCount`). */
  pendingCount?: string;
  /** false: the attempt's marker is set without the sweep of expired ones (markAttemptLua; SETTLE going on). */
  sweepMarkers?: boolean;
};

/**
 * The Lua pattern of a batch's fixed header that captures the generation of the job serving it
 * (`carrier`): the job that took it, or the job that took an earlier turn and went on to this one
 * (SETTLE). A batch stored without it (before carriers) is served by the job of its own generation.
 */
export const CARRIER_PATTERN = `'^{"delivery_id":"[%w_%-]*","generation":%d+,"count":%d+,"carrier":(%d+),'`;

/**
 * Lua shared by the scripts that take a turn's batch (TAKE, and SETTLE going on to the next turn):
 * once the caller has checked the generation, that no batch is taken and that the conversation is
 * not stopped, it takes the due messages of turn `generation` (waiting out the debounce window,
 * never past its ceiling), stores the batch under the delivery id and the serving job's
 * generation (`carrier`), marks its attempt in flight and reads the conversation's context. Leaves
 * the Lua locals `took` ('empty' | 'wait' | 'taken'), `waitMs`, `json` (the batch) and `context`.
 */
export const takeBatchLua = (k: TakeKeys, a: TakeArgs): string => `
local took = 'empty'
local waitMs = 0
local json
local context = {}
local pending = ${a.pendingCount ?? `redis.call('LLEN', ${k.pending})`}
if pending == 0 then
  redis.call('ZREM', ${k.waiting}, ${a.conversationId})
else
  local debounce = tonumber(${a.debounceMs})
  local t = redis.call('TIME')
  local now = t[1] * 1000 + math.floor(t[2] / 1000)
  local items
  -- what is left pending once the batch is taken: all of it goes, or one message
  local remaining = 0
  if debounce > 0 then
    local quiet = debounce - (now - tonumber(redis.call('GET', ${k.since}) or '0'))
    local ceiling = tonumber(${a.maxWaitMs}) - (now - tonumber(redis.call('GET', ${k.oldest}) or '0'))
    if quiet > 0 and ceiling > 0 then
      took = 'wait'
      waitMs = math.min(quiet, ceiling)
    else
      items = redis.call('LRANGE', ${k.pending}, '0', '-1')
      redis.call('DEL', ${k.pending}, ${k.oldest})
    end
  else
    items = {redis.call('LPOP', ${k.pending})}
    remaining = pending - 1
  end
  if items then
    if remaining == 0 then
      redis.call('DEL', ${k.oldest})
      redis.call('ZREM', ${k.waiting}, ${a.conversationId})
    end
    json = '{"delivery_id":' .. cjson.encode(${a.deliveryId}) .. ',"generation":' .. ${a.generation} .. ',"count":' .. string.format('%d', #items) .. ',"carrier":' .. ${a.carrier} .. ',"messages":[' .. table.concat(items, ',') .. ']}'
    redis.call('SET', ${k.batch}, json, 'PX', ${a.ttlMs})
    ${markAttemptLua(k.attempts, a.deliveryId, 'now', a.markerTtlMs, a.sweepMarkers ?? true)}
    -- the history of the batch's newest message (the one answered), its msg_id read from the due message's JSON
    ${readHistoryLua({ order: k.order, messages: k.messages }, `string.match(items[#items], '^{"message":{"msg_id":"([^"\\\\]*)"')`, a.contextWindow, 'context', a.contextCustomers)}
    took = 'taken'
  end
end`;

/** The keys and arguments of `endTurnLua`, by name. */
type EndTurnKeys = Readonly<Record<'generation' | 'batch' | 'pending' | 'stop' | 'paused' | 'oldest' | 'waiting', string>>;

/**
 * What endTurnLua reads that its caller may have read already in the same call (SETTLE): Lua
 * expressions of the generation (a number) and of whether the conversation is stopped (a boolean).
 */
type EndTurnReads = Readonly<Partial<Record<'generationNow' | 'stoppedNow', string>>>;

/**
 * Lua shared by the scripts that end a turn (SETTLE, FINISH): the generation advances if it is still
 * the job's (and the turn's batch goes); a turn whose reply handed off (docs/service-rules.md §17)
 * pauses the conversation's auto replies for `pauseMs` (HANDOFF_PAUSE_S; a longer pause already set
 * stays, nothing when 0) and the messages that arrived meanwhile are left to the person taking over
 * (they are in the context). Leaves the Lua locals `turn` ('next': messages wait, add job `current`;
 * 'idle'), `current` (the generation now) and `pendingCount` (the messages waiting). With `batch`
 * 'caller' the batch is not deleted here and the local `batchEnded` says whether it must go: the
 * caller deletes it then, unless it stores the next turn's batch under the same key (SETTLE going
 * on: the SET replaces it, one write instead of two).
 */
export const endTurnLua = (
  k: EndTurnKeys,
  a: Readonly<Record<'generation' | 'pauseMs' | 'conversationId', string>>,
  reads: EndTurnReads = {},
  batch: 'here' | 'caller' = 'here',
): string => `
local current = ${reads.generationNow ?? `tonumber(redis.call('GET', ${k.generation}) or '0')`}
${batch === 'here' ? '' : 'local batchEnded = false\n'}if current == tonumber(${a.generation}) then
  current = redis.call('INCR', ${k.generation})
  ${batch === 'here' ? `redis.call('DEL', ${k.batch})` : 'batchEnded = true -- the caller deletes the batch'}
end
do
  local pause = tonumber(${a.pauseMs})
  if pause and pause > 0 then
    local t = redis.call('TIME')
    local untilMs = t[1] * 1000 + math.floor(t[2] / 1000) + pause
    if tonumber(redis.call('GET', ${k.paused}) or '0') < untilMs then redis.call('SET', ${k.paused}, string.format('%d', untilMs), 'PX', ${a.pauseMs}) end
    redis.call('DEL', ${k.pending}, ${k.oldest})
    redis.call('ZREM', ${k.waiting}, ${a.conversationId})
  end
end
local pendingCount = redis.call('LLEN', ${k.pending})
local turn = 'idle'
if pendingCount > 0 and not (${reads.stoppedNow ?? `redis.call('EXISTS', ${k.stop}) == 1`}) then turn = 'next' end`;

export const OPEN_ATTEMPT = defineLuaScript({
  name: 'open-attempt',
  keys: ['stop', 'generation', 'attempts', 'delivery', 'deliveryAttempts', 'order', 'messages'],
  args: ['generation', 'deliveryId', 'ttlMs'],
  source: `
--[[ Right before a delivery attempt on a reply taken before (worker): a retry, a re-run after a
  crash, an operator's redelivery.
  Input:  KEYS[1] stop  KEYS[2] generation
          KEYS[3] attempts  (hash of the attempts in flight: delivery id -> until ms)
          KEYS[4] delivery  (the record's hash, when the reply was stored)
          KEYS[5] deliveryAttempts  (its attempt log)
          KEYS[6] order  KEYS[7] messages  (the conversation's context)
          ARGV[1] generation  G of the job; '' for an operator's redelivery (not bound to the turn)
          ARGV[2] deliveryId  ARGV[3] ttlMs  (of the marker)
  Output: {go, record (HGETALL pairs, {} when none), attempts made, context ({} unless go and no
          record: the reply must be produced)}. go 1: marked in flight; 0: stopped, or the
          generation moved on (nothing is marked). Checking and marking in one step is what
          makes "no attempt starts after the stop's answer" hold (docs/design/reply-protocol.md). ]]
local record = redis.call('HGETALL', KEYS[4])
local made = redis.call('LLEN', KEYS[5])
if redis.call('EXISTS', KEYS[1]) == 1 then return {0, record, made, {}} end
if ARGV[1] ~= '' and tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[1]) then return {0, record, made, {}} end
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
${markAttemptLua('KEYS[3]', 'ARGV[2]', 'now', 'ARGV[3]')}
local context = {}
if #record == 0 then ${readContextLua({ order: 'KEYS[6]', messages: 'KEYS[7]' }, '0', 'context')} end
return {1, record, made, context}
`,
});

const SETTLE_ARGS = [
  'generation',
  'deliveryId',
  'state',
  'reason',
  'detail',
  'atMs',
  'attempt',
  'reply',
  'endTurn',
  'pauseMs',
  'conversationId',
  'nextDeliveryId',
  'carrier',
] as const;

/** What SETTLE writes into its text: the attempt store's configuration (docs/design/lua-scripts.md, "Settings in the text"). */
export interface SettleSettings extends TakeSettings {
  recordTtlS: number;
  deadTtlS: number;
  contextCap: number;
  contextTtlMs: number;
}

/**
 * SETTLE with `settings` and the engine's `reach` in its text: made once by an attempt store (once per
 * reach it is asked for), whose every call passes only what changes.
 */
export const settleScript = (settings: SettleSettings, reach: ContextReach = {}) =>
  defineLuaScript({
    name: 'settle-attempt',
    keys: [
      'generation',
      'batch',
      'pending',
      'stop',
      'attempts',
      'delivery',
      'conversationDeliveries',
      'deliveryAttempts',
      'deadLetters',
      'order',
      'messages',
      'paused',
      'oldest',
      'waiting',
      'since',
    ],
    args: SETTLE_ARGS,
    source: `
--[[ What follows an attempt, or a turn that ends without one (worker), in one step.
  Input:  KEYS[1] generation  KEYS[2] batch  KEYS[3] pending  KEYS[4] stop
          KEYS[5] attempts  (hash of the attempts in flight)
          KEYS[6] delivery  KEYS[7] conversationDeliveries  KEYS[8] deliveryAttempts
          KEYS[9] deadLetters  (the shard's sorted set of dead ids by time of death)
          KEYS[10] order  KEYS[11] messages  (the conversation's context)
          KEYS[12] paused  KEYS[13] oldest  KEYS[14] waiting  (the shard's conversations with messages waiting)
          KEYS[15] since  (when the latest message was queued: the debounce of the next turn)
          ARGV[1] generation  G of the job; '' for an operator's redelivery
          ARGV[2] deliveryId
          ARGV[3] state  '' (none) | delivered | retrying | dead | cancelled: moves a pending or
                  retrying record; a stopped conversation, or a turn whose generation moved on (a
                  stop, a human's message), makes it cancelled; any other state is final
          ARGV[4] reason  ARGV[5] detail  ARGV[6] atMs  (for dead)
          ARGV[7] attempt  JSON entry of the attempt's log, '' when there was none
          ARGV[8] reply  JSON context message of the reply, recorded once it is delivered ('' none)
          ARGV[9] endTurn  '1': the turn ends (unless the record moved to retrying)
          ARGV[10] pauseMs  > 0: the turn's reply handed off (HANDOFF_PAUSE_S): when the turn ends, auto
                  replies pause this long and the messages that arrived meanwhile are left to the person
          ARGV[11] conversationId  (its member in KEYS[14])
          ARGV[12] nextDeliveryId  '' or the delivery id of the next turn: when this call ends turn G
                  and messages wait, the next turn G+1 is taken here for the same job (its batch
                  stored, its attempt marked in flight, the context read: TAKE's step), unless the
                  debounce window still runs
          ARGV[13] carrier  the generation of the job going on (the batch names it: a re-run of
                  that job finds the batch, the sweep makes sure that job exists)
          ARGV[${SETTLE_ARGS.length + 1}..${SETTLE_ARGS.length + SETTLE_RECORD_FIELDS.length}] the values of a record produced this run
                  (${SETTLE_RECORD_FIELDS.join(', ')}; handoff 'true' or ''; its delivery_id and
                  conversation_id are ARGV[2] and ARGV[11]), stored unless it exists; none without one
  Settings, written into this text by the store that runs it (the same for every call; a store
          with other settings runs a script of its own): recordTtlS (a record and its log, from
          now), deadTtlS (a dead letter), keepIds (delivery ids kept per conversation),
          contextCap and contextTtlMs (the context a delivered reply joins), and as TAKE's:
          debounceMs, maxWaitMs, batchTtlMs, markerTtlMs, and the engine's reach, contextWindow
          and contextCustomers (the next turn's context is read as TAKE reads it)
  Output: {state it moved to, or '' (refused or none), 'next' | 'idle' | 'open', G'}
          ('next': messages wait, add job G'; 'open': the turn goes on, a retry)
          | {state, 'next', G', ms}: messages wait but the next turn's debounce window runs ms more
          (with ARGV[12]): add job G' delayed by ms
          | {state, 'taken', G', batch JSON, context}: the next turn taken for the same job ]]
local recordTtlS, deadTtlS, keepIds = ${luaText(settings.recordTtlS)}, ${luaText(settings.deadTtlS)}, ${luaText(KEEP_PER_CONVERSATION)}
local contextCap, contextTtlMs = ${luaText(settings.contextCap)}, ${luaText(settings.contextTtlMs)}${takeSettingsLua(settings)}${reachLua(reach)}
local id = ARGV[2]
-- the generation and the stop, each read once whoever asks first (the state's move, the end of the turn)
local generationRead
local function generationNow()
  if generationRead == nil then generationRead = tonumber(redis.call('GET', KEYS[1]) or '0') end
  return generationRead
end
local stoppedRead
local function stoppedNow()
  if stoppedRead == nil then stoppedRead = redis.call('EXISTS', KEYS[4]) == 1 end
  return stoppedRead
end
local created = #ARGV >= ${SETTLE_ARGS.length + 1} and redis.call('HSETNX', KEYS[6], 'delivery_id', id) == 1
local moved = ''
if ARGV[3] ~= '' then
  -- a record created here has the state of its fields; a stored one is read
  local state
  if created then
    state = ${recordArg('state')}
  else
    state = redis.call('HGET', KEYS[6], 'state')
  end
  if state == 'pending' or state == 'retrying' then
    moved = ARGV[3]
    if stoppedNow() or (ARGV[1] ~= '' and generationNow() ~= tonumber(ARGV[1])) then moved = 'cancelled' end
  end
end
if created then
  -- stored with the state it moves to, in one write (a handoff's flag in a second)
  local stored = moved ~= '' and moved or ${recordArg('state')}
  redis.call('HSET', KEYS[6],
    ${recordHsetArgs('stored')})
  if ${recordArg('handoff')} ~= '' then redis.call('HSET', KEYS[6], 'handoff', ${recordArg('handoff')}) end
  redis.call('EXPIRE', KEYS[6], recordTtlS)
  -- trimmed only once it holds more than it keeps (LPUSH answers its length)
  if redis.call('LPUSH', KEYS[7], id) > tonumber(keepIds) then redis.call('LTRIM', KEYS[7], '0', string.format('%d', keepIds - 1)) end
  redis.call('EXPIRE', KEYS[7], recordTtlS)
elseif moved ~= '' then
  redis.call('HSET', KEYS[6], 'state', moved)
end
if ARGV[7] ~= '' then
  -- a log this attempt created has no TTL yet; a longer one (a dead letter's, revived) is kept
  if redis.call('RPUSH', KEYS[8], ARGV[7]) == 1 or redis.call('TTL', KEYS[8]) < tonumber(recordTtlS) then redis.call('EXPIRE', KEYS[8], recordTtlS) end
end
redis.call('HDEL', KEYS[5], id)
if moved == 'dead' then
  redis.call('HSET', KEYS[6], 'dead_reason', ARGV[4], 'dead_detail', ARGV[5])
  redis.call('ZADD', KEYS[9], ARGV[6], id)
  redis.call('EXPIRE', KEYS[6], deadTtlS)
  redis.call('EXPIRE', KEYS[8], deadTtlS)
end
if moved == 'delivered' and ARGV[8] ~= '' then
  local appended = 0
  ${appendContextLua({ order: 'KEYS[10]', messages: 'KEYS[11]' }, { cap: 'contextCap', ttlMs: 'contextTtlMs' }, '{id, ARGV[8]}', 'appended')}
end
if ARGV[9] ~= '1' or moved == 'retrying' then return {moved, 'open', ''} end
${endTurnLua(
  {
    generation: 'KEYS[1]',
    batch: 'KEYS[2]',
    pending: 'KEYS[3]',
    stop: 'KEYS[4]',
    paused: 'KEYS[12]',
    oldest: 'KEYS[13]',
    waiting: 'KEYS[14]',
  },
  { generation: 'ARGV[1]', pauseMs: 'ARGV[10]', conversationId: 'ARGV[11]' },
  { generationNow: 'generationNow()', stoppedNow: 'stoppedNow()' },
  'caller',
)}
if turn == 'next' and ARGV[12] ~= '' and current == tonumber(ARGV[1]) + 1 then
  ${takeBatchLua(
    {
      pending: 'KEYS[3]',
      since: 'KEYS[15]',
      oldest: 'KEYS[13]',
      batch: 'KEYS[2]',
      waiting: 'KEYS[14]',
      attempts: 'KEYS[5]',
      order: 'KEYS[10]',
      messages: 'KEYS[11]',
    },
    {
      generation: "string.format('%d', current)",
      debounceMs: 'debounceMs',
      maxWaitMs: 'maxWaitMs',
      ttlMs: 'batchTtlMs',
      deliveryId: 'ARGV[12]',
      conversationId: 'ARGV[11]',
      markerTtlMs: 'markerTtlMs',
      carrier: 'ARGV[13]',
      contextWindow: 'contextWindow',
      contextCustomers: 'contextCustomers',
      pendingCount: 'pendingCount',
      sweepMarkers: false,
    },
  )}
  if took == 'taken' then return {moved, 'taken', string.format('%d', current), json, context} end
  if batchEnded then redis.call('DEL', KEYS[2]) end
  if took == 'wait' then return {moved, 'next', string.format('%d', current), string.format('%d', waitMs)} end
elseif batchEnded then
  redis.call('DEL', KEYS[2])
end
return {moved, turn, string.format('%d', current)}
`,
  });

/** Settings for the checks of every script (REPLY_SCRIPTS), where a store makes its own. */
const EXAMPLE_SETTLE_SETTINGS: SettleSettings = {
  ...EXAMPLE_TAKE_SETTINGS,
  recordTtlS: 86_400,
  deadTtlS: 604_800,
  contextCap: 50,
  contextTtlMs: 86_400_000,
};

export const ATTEMPT_SCRIPTS = [OPEN_ATTEMPT, settleScript(EXAMPLE_SETTLE_SETTINGS)];
