import type { ContextMessage } from '@dialog-relay/contracts';
import { runScript, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { READ, RECORD } from './context.scripts.js';

/**
 * The recent messages of each conversation: deduplicated by msg_id, capped to the last
 * `maxMessages`, expiring `ttlSeconds` after the last record. A list of msg ids (oldest first)
 * plus a hash msg_id -> JSON message, both written by one Lua script so they never disagree.
 */
export interface ContextStore {
  /** Appends the messages (in order) that are not in the context yet; returns how many were new. */
  record(conversationId: string, messages: readonly ContextMessage[]): Promise<number>;
  /** The last `limit` messages (default all), oldest first, in one round trip. */
  read(conversationId: string, limit?: number): Promise<ContextMessage[]>;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

export function createContextStore(deps: { redis: Redis; keys: RedisKeys; maxMessages: number; ttlSeconds: number }): ContextStore {
  const { keys, redis } = deps;
  const maxMessages = positiveInteger('maxMessages', deps.maxMessages);
  const ttlMs = positiveInteger('ttlSeconds', deps.ttlSeconds) * 1000;

  return {
    async record(conversationId, messages) {
      if (messages.length === 0) return 0;
      const pairs: string[] = [];
      for (const message of messages) {
        if (typeof message.msg_id !== 'string' || message.msg_id === '') {
          throw new TypeError('a context message needs a non-empty msg_id');
        }
        pairs.push(message.msg_id, JSON.stringify(message));
      }
      const contextKeys = { order: keys.contextOrder(conversationId), messages: keys.contextMessages(conversationId) };
      const added = await runScript(redis, RECORD, contextKeys, { cap: maxMessages, ttlMs }, pairs);
      return Number(added);
    },

    async read(conversationId, limit) {
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      }
      if (limit === 0) return [];
      const reply = await runScript(redis, READ, { order: keys.contextOrder(conversationId), messages: keys.contextMessages(conversationId) }, { limit: limit ?? 0 });
      if (!Array.isArray(reply)) throw new Error('unexpected reply from the context read script');
      const messages: ContextMessage[] = [];
      for (const json of reply as unknown[]) {
        if (typeof json === 'string') messages.push(JSON.parse(json) as ContextMessage);
      }
      return messages;
    },
  };
}
