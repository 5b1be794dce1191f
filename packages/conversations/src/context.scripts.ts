import { defineLuaScript } from '@dialog-relay/redis';

/**
 * Lua scripts of the context store (docs/design/lua-scripts.md). HDEL/HMGET arguments are sent in chunks
 * so that a large cap never hits Lua's unpack() limit.
 */

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
local cap = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local added = 0
for i = 3, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1]) == 1 then
    redis.call('RPUSH', KEYS[1], ARGV[i])
    added = added + 1
  end
end
local excess = redis.call('LLEN', KEYS[1]) - cap
if excess > 0 then
  local old = redis.call('LRANGE', KEYS[1], 0, excess - 1)
  redis.call('LTRIM', KEYS[1], excess, -1)
  for j = 1, #old, 500 do
    redis.call('HDEL', KEYS[2], unpack(old, j, math.min(j + 499, #old)))
  end
end
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return added
`,
});

export const READ = defineLuaScript({
  name: 'context-read',
  keys: ['order', 'messages'],
  args: ['limit'],
  source: `
--[[ Read the latest messages of a conversation's context.
  Input:  KEYS[1] order  KEYS[2] messages
          ARGV[1] limit  0 = all
  Output: the JSON of the last limit messages, oldest first (a missing hash field yields nil) ]]
local limit = tonumber(ARGV[1])
local ids
if limit > 0 then
  ids = redis.call('LRANGE', KEYS[1], -limit, -1)
else
  ids = redis.call('LRANGE', KEYS[1], 0, -1)
end
local out = {}
for j = 1, #ids, 500 do
  local values = redis.call('HMGET', KEYS[2], unpack(ids, j, math.min(j + 499, #ids)))
  for k = 1, #values do
    out[#out + 1] = values[k]
  end
end
return out
`,
});

export const CONTEXT_SCRIPTS = [RECORD, READ];
