import { stepCall, withSettings, type Redis, type RedisKeys, type StepCall } from '@dialog-relay/redis';
import { INDEX_LOOKUP_PART, INDEX_REMEMBER_PART } from './message-index.lua.js';

/**
 * msg_id -> conversation id of auto_dialog messages, so that a later assist_dialog with the same
 * msg_id lands in the same conversation. Entries live as long as a context (ttlSeconds).
 */
export interface MessageIndex {
  remember(client: string, msgId: string, conversationId: string): Promise<void>;
  lookup(client: string, msgId: string): Promise<string | null>;
  /** remember() and lookup() as parts of a request's scripts (docs/design/lua-scripts.md "Composed scripts"). */
  rememberStep(client: string, msgId: string, conversationId: string): StepCall;
  lookupStep(client: string, msgId: string): StepCall;
}

export function createMessageIndex(deps: { redis: Redis; keys: RedisKeys; ttlSeconds: number }): MessageIndex {
  const { redis, keys, ttlSeconds } = deps;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) throw new RangeError(`ttlSeconds must be a positive integer, got ${ttlSeconds}`);
  // made once: the expiry is written into its text (docs/design/lua-scripts.md "Settings in the text")
  const rememberPart = withSettings(INDEX_REMEMBER_PART, { ttlS: ttlSeconds });
  return {
    async remember(client, msgId, conversationId) {
      await redis.set(keys.messageConversation(client, msgId), conversationId, 'EX', ttlSeconds);
    },
    async lookup(client, msgId) {
      return redis.get(keys.messageConversation(client, msgId));
    },
    rememberStep: (client, msgId, conversationId) =>
      stepCall(rememberPart, { indexed: keys.messageConversation(client, msgId) }, { conversationId }),
    lookupStep: (client, msgId) => stepCall(INDEX_LOOKUP_PART, { indexed: keys.messageConversation(client, msgId) }, {}),
  };
}
