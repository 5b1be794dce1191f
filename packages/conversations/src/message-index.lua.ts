import { defineLuaPart } from '@dialog-relay/redis';

/** The msg_id index's lookup as a part of a request's first script (docs/lua-scripts.md "Composed scripts"). */
export const INDEX_LOOKUP_PART = defineLuaPart({
  name: 'index-lookup',
  does: 'the conversation an auto_dialog msg_id was recorded in (GET)',
  keys: ['indexed'],
  args: [],
  output: 'conversation id | false',
  slot: 'client',
  lua: (k) => `return redis.call('GET', ${k.indexed})`,
});

/** The msg_id index's entry as a part of a request's write script. */
export const INDEX_REMEMBER_PART = defineLuaPart({
  name: 'index-remember',
  does: 'remember the conversation of an auto_dialog msg_id (SET EX)',
  keys: ['indexed'],
  args: ['conversationId', 'ttlS'],
  output: "'OK'",
  slot: 'client',
  lua: (k, a) => `return redis.call('SET', ${k.indexed}, ${a.conversationId}, 'EX', ${a.ttlS})`,
});
