import { defineLuaPart, defineLuaScript } from '@dialog-relay/redis';

/**
 * Lua scripts of the context store (docs/design/lua-scripts.md). HDEL/HMGET arguments are sent in chunks
 * so that a large cap never hits Lua's unpack() limit.
 */

type ContextKeys = Readonly<Record<'order' | 'messages', string>>;

/**
 * Lua that appends messages to a context (the one place it is written, for RECORD and the worker's
 * SETTLE): `pairs` is a Lua expression of the msg_id, json pairs as one flat list; each msg_id not yet
 * in the hash (HSETNX) goes to the end of the list, in order and in one RPUSH (each command a script
 * runs costs Redis more than most commands do), and adds 1 to the Lua variable `counter` (declared by
 * the caller); the oldest beyond the cap leave both keys; both TTLs are refreshed.
 */
export const appendContextLua = (k: ContextKeys, a: Readonly<Record<'cap' | 'ttlMs', string>>, pairs: string, counter: string): string => `
do
  local cap = tonumber(${a.cap})
  local entries = ${pairs}
  -- the new ids go to the list in one RPUSH, which answers its length: LLEN only when none was new;
  -- a list of them only when there are several (one new message, the usual append, makes none)
  local new, firstNew, newIds = 0
  for i = 1, #entries, 2 do
    if redis.call('HSETNX', ${k.messages}, entries[i], entries[i + 1]) == 1 then
      new = new + 1
      if new == 1 then firstNew = entries[i] else newIds = newIds or {firstNew} newIds[new] = entries[i] end
    end
  end
  ${counter} = ${counter} + new
  local length
  if new == 1 then length = redis.call('RPUSH', ${k.order}, firstNew) end
  for j = 1, newIds and new or 0, 500 do length = redis.call('RPUSH', ${k.order}, unpack(newIds, j, math.min(j + 499, new))) end
  local excess = (length or redis.call('LLEN', ${k.order})) - cap
  if excess > 0 then
    local old = redis.call('LRANGE', ${k.order}, '0', string.format('%d', excess - 1))
    redis.call('LTRIM', ${k.order}, string.format('%d', excess), '-1')
    for j = 1, #old, 500 do
      redis.call('HDEL', ${k.messages}, unpack(old, j, math.min(j + 499, #old)))
    end
  end
  redis.call('PEXPIRE', ${k.order}, ${a.ttlMs})
  redis.call('PEXPIRE', ${k.messages}, ${a.ttlMs})
end`;

/**
 * Lua that walks the caller's Lua table `ids` (a context's msg ids) back from position `high` to `from` (Lua expressions), reading
 * five messages at a time, and appends to `into`, oldest first, the latest `customers` of the
 * customer's messages with a text part ("role":"customer" and "type":"text" in the JSON the
 * context's writer stored; readHistoryLua says why that finds them: ReplyEngine.contextCustomerTexts);
 * with `at` (a Lua expression of a position; 'nil' for none), the message there is read in the
 * first read and appended after them, whatever it is (the answered message).
 */
const customerTextsLua = (k: ContextKeys, bounds: Readonly<Record<'from' | 'high' | 'at' | 'customers', string>>, into: string): string => `
do
  local found = {}
  local own
  local high = ${bounds.high}
  while high >= ${bounds.from} and (high == ${bounds.at} or #found < ${bounds.customers}) do
    local low = high
    if ${bounds.customers} > 0 then low = math.max(${bounds.from}, high - 4) end
    local values = redis.call('HMGET', ${k.messages}, unpack(ids, low, high))
    for v = high - low + 1, 1, -1 do
      local value = values[v]
      if low + v - 1 == ${bounds.at} then
        own = value
      elseif value and #found < ${bounds.customers} and string.find(value, '"role":"customer"', 1, true) and string.find(value, '"type":"text"', 1, true) then
        found[#found + 1] = value
      end
    end
    high = low - 1
  end
  for f = #found, 1, -1 do ${into}[#${into} + 1] = found[f] end
  if own then ${into}[#${into} + 1] = own end
end`;

/**
 * Lua that reads a context's latest `limit` messages (a Lua expression; 0: all), oldest first, into
 * the Lua table `into` (the one place it is read, for READ and the worker's TAKE and OPEN_ATTEMPT).
 * A message missing from the hash is skipped. `customers` (a Lua expression; '' for none): only the
 * latest that many of the customer's messages with a text part among them, read from the newest
 * back, five at a time, until they are found (ReplyEngine.contextCustomerTexts).
 */
export const readContextLua = (k: ContextKeys, limit: string, into: string, customers = "''"): string => `
do
  local limit = tonumber(${limit})
  local ids
  if limit > 0 then
    ids = redis.call('LRANGE', ${k.order}, string.format('%d', -limit), '-1')
  else
    ids = redis.call('LRANGE', ${k.order}, '0', '-1')
  end
  local customers = tonumber(${customers})
  if customers then
    ${customerTextsLua(k, { from: '1', high: '#ids', at: 'nil', customers: 'customers' }, into)}
  else
    for j = 1, #ids, 500 do
      local values = redis.call('HMGET', ${k.messages}, unpack(ids, j, math.min(j + 499, #ids)))
      for v = 1, #values do
        if values[v] then ${into}[#${into} + 1] = values[v] end
      end
    end
  end
end`;

/**
 * How many messages after the answered one the first look at a context's latest ids allows for (the
 * later messages of a backlog, replies that landed after it): ten covers a backlog of ten; past that
 * the whole list is read, as it always was before.
 */
export const HISTORY_TAIL_AFTER = 10;

/**
 * Lua that reads what a reply's history needs of a context (for the worker's TAKE and SETTLE), into
 * the Lua table `into`, oldest first: the message `msgId` (a Lua expression, nil when unknown), the
 * `window` messages before it (a Lua expression; '' or a negative number: all of them), and, after
 * it, only the bot's replies (a reply to an earlier turn can land after the message); the later
 * customer messages belong to later turns. When the message is not in the context (it was pushed
 * out, or its id is unknown), every message is read, as readContextLua with no limit. A message
 * missing from the hash is skipped. A message's role is found in its JSON as written by the
 * context's writer (`"role":"bot"`; a customer's text cannot hold it unescaped).
 *
 * `customers` (a Lua expression; '' for none): an engine that reads only the customer's own texts
 * (ReplyEngine.contextCustomerTexts) gets, before the message, only the latest that many customer
 * messages with a text part within the window, and nothing after it. They are read from the message
 * backwards, five at a time, until enough are found: a turn then reads a few messages of the
 * context, not the window's ten.
 *
 * With a window, the message is looked for among the context's latest `window` + 1 +
 * HISTORY_TAIL_AFTER ids first, and every id is listed only when it or its window is not among them:
 * each string a script reads costs Redis its hashing into Lua, byte by byte, and a turn's message is
 * almost always one of the latest (docs/design/performance-log.md, twenty-second session).
 */
export const readHistoryLua = (k: ContextKeys, msgId: string, window: string, into: string, customers = "''"): string => `
do
  local id = ${msgId}
  local window = tonumber(${window})
  local ids
  local at
  -- the latest ids first: enough when the message and its window are among them, or they are all
  if id and window and window >= 0 then
    local tail = window + ${HISTORY_TAIL_AFTER + 1}
    ids = redis.call('LRANGE', ${k.order}, string.format('%d', -tail), '-1')
    for i = #ids, 1, -1 do
      if ids[i] == id then at = i break end
    end
    if not ((at and at > window) or #ids < tail) then ids = nil at = nil end
  end
  if not ids then
    ids = redis.call('LRANGE', ${k.order}, '0', '-1')
    if id then
      for i = #ids, 1, -1 do
        if ids[i] == id then at = i break end
      end
    end
  end
  local from = 1
  if at and window and window >= 0 then from = math.max(1, at - window) end
  local customers = tonumber(${customers})
  if at and customers then
    ${customerTextsLua(k, { from: 'from', high: 'at', at: 'at', customers: 'customers' }, into)}
  else
    for j = from, #ids, 500 do
      local last = math.min(j + 499, #ids)
      local values = redis.call('HMGET', ${k.messages}, unpack(ids, j, last))
      for v = 1, last - j + 1 do
        local value = values[v]
        if value and (not at or j + v - 1 <= at or string.find(value, '"role":"bot"', 1, true)) then ${into}[#${into} + 1] = value end
      end
    end
  end
end`;

/** The body of RECORD; `pairs` is a Lua expression of the msg_id, json pairs as one flat list. */
const recordLua = (k: ContextKeys, a: Readonly<Record<'cap' | 'ttlMs', string>>, pairs: string): string => `
local added = 0
${appendContextLua(k, a, pairs, 'added')}
return added
`;

export const RECORD = defineLuaScript({
  name: 'context-record',
  keys: ['order', 'messages'],
  args: ['cap', 'ttlMs'],
  source: `
--[[ Append messages to a conversation's context.
  Input:  KEYS[1] order     list of msg ids, oldest first
          KEYS[2] messages  hash msg id -> JSON message
          ARGV[1] cap       messages kept
          ARGV[2] ttlMs     expiry after the last record
          ARGV[3..] msg_id, json pairs
  Adds each msg_id not yet in the hash (HSETNX) to the end of the list, drops the oldest beyond the
  cap from both keys, refreshes both TTLs.
  Output: how many messages were new ]]
${recordLua({ order: 'KEYS[1]', messages: 'KEYS[2]' }, { cap: 'ARGV[1]', ttlMs: 'ARGV[2]' }, '(function() local p = {} for i = 3, #ARGV do p[#p + 1] = ARGV[i] end return p end)()')}`,
});

const readLua = (k: ContextKeys, a: Readonly<Record<'limit' | 'customers', string>>): string => `
local out = {}
${readContextLua(k, a.limit, 'out', a.customers)}
return out
`;

export const READ = defineLuaScript({
  name: 'context-read',
  keys: ['order', 'messages'],
  args: ['limit', 'customers'],
  source: `
--[[ Read the latest messages of a conversation's context.
  Input:  KEYS[1] order  KEYS[2] messages
          ARGV[1] limit  0 = all
          ARGV[2] customers  '' or: only the latest this many of the customer's messages with text among them
  Output: the JSON of the last limit messages, oldest first (one missing from the hash is skipped) ]]
${readLua({ order: 'KEYS[1]', messages: 'KEYS[2]' }, { limit: 'ARGV[1]', customers: 'ARGV[2]' })}`,
});

/** READ as a part of a request's first script (docs/design/lua-scripts.md "Composed scripts"). */
export const READ_PART = defineLuaPart({
  name: 'context-read',
  does: "read the conversation's latest messages, or only the customer's latest texts among them (context-read)",
  keys: ['order', 'messages'],
  args: ['limit', 'customers'],
  output: 'the JSON of the last limit messages, oldest first',
  slot: 'conversation',
  lua: readLua,
});

/**
 * RECORD as a part of a request's write script: one message, or two (website_dialog's question and
 * answer), each as its msg_id and JSON; `secondId` '' when there is one. Passed as they are, not as
 * one JSON array: decoding it cost Redis a tenth of the accept script's own work.
 */
export const RECORD_PART = defineLuaPart({
  name: 'context-record',
  does: "append one or two messages to the conversation's context (context-record)",
  keys: ['order', 'messages'],
  args: ['cap', 'ttlMs', 'firstId', 'first', 'secondId', 'second'],
  output: 'how many messages were new',
  slot: 'conversation',
  lua: (k, a) =>
    recordLua(k, a, `(${a.secondId} == '' and {${a.firstId}, ${a.first}} or {${a.firstId}, ${a.first}, ${a.secondId}, ${a.second}})`),
});

export const CONTEXT_SCRIPTS = [RECORD, READ];
