import { defineLuaPart, defineLuaScript } from '@dialog-relay/redis';

/**
 * Lua scripts of the context store (docs/lua-scripts.md). HDEL/HMGET arguments are sent in chunks
 * so that a large cap never hits Lua's unpack() limit.
 */

/** The body of RECORD; `pairs` is a Lua expression of the msg_id, json pairs as one flat list. */
const recordLua = (k: Readonly<Record<'order' | 'messages', string>>, a: Readonly<Record<'cap' | 'ttlMs', string>>, pairs: string): string => `
local cap = tonumber(${a.cap})
local ttl = tonumber(${a.ttlMs})
local entries = ${pairs}
local added = 0
for i = 1, #entries, 2 do
  if redis.call('HSETNX', ${k.messages}, entries[i], entries[i + 1]) == 1 then
    redis.call('RPUSH', ${k.order}, entries[i])
    added = added + 1
  end
end
local excess = redis.call('LLEN', ${k.order}) - cap
if excess > 0 then
  local old = redis.call('LRANGE', ${k.order}, 0, excess - 1)
  redis.call('LTRIM', ${k.order}, excess, -1)
  for j = 1, #old, 500 do
    redis.call('HDEL', ${k.messages}, unpack(old, j, math.min(j + 499, #old)))
  end
end
redis.call('PEXPIRE', ${k.order}, ttl)
redis.call('PEXPIRE', ${k.messages}, ttl)
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

const readLua = (k: Readonly<Record<'order' | 'messages', string>>, a: Readonly<Record<'limit', string>>): string => `
local limit = tonumber(${a.limit})
local ids
if limit > 0 then
  ids = redis.call('LRANGE', ${k.order}, -limit, -1)
else
  ids = redis.call('LRANGE', ${k.order}, 0, -1)
end
local out = {}
for j = 1, #ids, 500 do
  local values = redis.call('HMGET', ${k.messages}, unpack(ids, j, math.min(j + 499, #ids)))
  for k = 1, #values do
    out[#out + 1] = values[k]
  end
end
return out
`;

export const READ = defineLuaScript({
  name: 'context-read',
  keys: ['order', 'messages'],
  args: ['limit'],
  source: `
--[[ Read the latest messages of a conversation's context.
  Input:  KEYS[1] order  KEYS[2] messages
          ARGV[1] limit  0 = all
  Output: the JSON of the last limit messages, oldest first (a missing hash field yields nil) ]]
${readLua({ order: 'KEYS[1]', messages: 'KEYS[2]' }, { limit: 'ARGV[1]' })}`,
});

/** READ as a part of a request's first script (docs/lua-scripts.md "Composed scripts"). */
export const READ_PART = defineLuaPart({
  name: 'context-read',
  does: "read the conversation's latest messages (context-read)",
  keys: ['order', 'messages'],
  args: ['limit'],
  output: 'the JSON of the last limit messages, oldest first',
  slot: 'conversation',
  lua: readLua,
});

/** RECORD as a part of a request's write script: the msg_id, json pairs come as one JSON array. */
export const RECORD_PART = defineLuaPart({
  name: 'context-record',
  does: "append messages to the conversation's context (context-record)",
  keys: ['order', 'messages'],
  args: ['cap', 'ttlMs', 'pairs'],
  output: 'how many messages were new',
  slot: 'conversation',
  lua: (k, a) => recordLua(k, a, `cjson.decode(${a.pairs})`),
});

export const CONTEXT_SCRIPTS = [RECORD, READ];
