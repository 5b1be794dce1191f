import type { ContextMessage } from '@dialog-relay/contracts';
import { keptPerKey, runScript, stepCall, withSettings, type Redis, type RedisKeys, type StepCall } from '@dialog-relay/redis';
import { parseContextMessages } from './context-message.js';
import { READ, READ_PART, RECORD, RECORD_PART } from './context.scripts.js';

/**
 * The recent messages of each conversation: deduplicated by msg_id, capped to the last
 * `maxMessages`, expiring `ttlSeconds` after the last record. A list of msg ids (oldest first)
 * plus a hash msg_id -> JSON message, both written by one Lua script so they never disagree.
 */
export interface ContextStore {
  /** Appends the messages (in order) that are not in the context yet; returns how many were new. */
  record(conversationId: string, messages: readonly ContextMessage[]): Promise<number>;
  /**
   * The last `limit` messages (default all), oldest first, in one round trip; with `customerTexts`,
   * only that many of the customer's latest messages with text among them (ReplyEngine.contextCustomerTexts).
   */
  read(conversationId: string, limit?: number, customerTexts?: number): Promise<ContextMessage[]>;
  /** record() of one or two messages as a part of a request's write script (docs/design/lua-scripts.md "Composed scripts"). */
  recordStep(conversationId: string, messages: readonly [ContextMessage] | readonly [ContextMessage, ContextMessage]): StepCall;
  /** read() as a part of a request's first script; its reply read with readReply(). */
  readStep(conversationId: string, limit: number, customerTexts?: number): StepCall;
  readReply(reply: unknown): ContextMessage[];
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

export function createContextStore(deps: { redis: Redis; keys: RedisKeys; maxMessages: number; ttlSeconds: number }): ContextStore {
  const { keys, redis } = deps;
  const maxMessages = positiveInteger('maxMessages', deps.maxMessages);
  const ttlMs = positiveInteger('ttlSeconds', deps.ttlSeconds) * 1000;

  const pairsOf = (messages: readonly ContextMessage[]): string[] => {
    const pairs: string[] = [];
    for (const message of messages) {
      if (typeof message.msg_id !== 'string' || message.msg_id === '') {
        throw new TypeError('a context message needs a non-empty msg_id');
      }
      pairs.push(message.msg_id, JSON.stringify(message));
    }
    return pairs;
  };
  const contextKeys = (conversationId: string) => ({
    order: keys.contextOrder(conversationId),
    messages: keys.contextMessages(conversationId),
  });
  // The parts, made once (the reads' once per reach asked, a few): the cap, the expiry and the reach
  // are the same on every call, so they are written into their text (docs/design/lua-scripts.md).
  const recordPart = withSettings(RECORD_PART, { cap: maxMessages, ttlMs });
  const readPart = keptPerKey(
    (limit: number, customers: number | '') => `${limit}:${customers}`,
    (limit: number, customers: number | '') => withSettings(READ_PART, { limit, customers }),
  );
  const readReply = (reply: unknown): ContextMessage[] => {
    if (!Array.isArray(reply)) throw new Error('unexpected reply from the context read script');
    return parseContextMessages((reply as unknown[]).filter((json): json is string => typeof json === 'string'));
  };

  return {
    async record(conversationId, messages) {
      if (messages.length === 0) return 0;
      const pairs = pairsOf(messages);
      const added = await runScript(redis, RECORD, contextKeys(conversationId), { cap: maxMessages, ttlMs }, pairs);
      return Number(added);
    },
    recordStep(conversationId, messages) {
      if (messages.length < 1 || messages.length > 2) throw new RangeError(`recordStep takes one or two messages, got ${messages.length}`);
      const [firstId = '', first = '', secondId = '', second = ''] = pairsOf(messages);
      return stepCall(recordPart, contextKeys(conversationId), { firstId, first, secondId, second });
    },
    readStep: (conversationId, limit, customerTexts) => stepCall(readPart(limit, customerTexts ?? ''), contextKeys(conversationId), {}),
    readReply,

    async read(conversationId, limit, customerTexts) {
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
        throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      }
      if (limit === 0) return [];
      return readReply(await runScript(redis, READ, contextKeys(conversationId), { limit: limit ?? 0, customers: customerTexts ?? '' }));
    },
  };
}
