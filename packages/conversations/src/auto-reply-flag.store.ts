import type { Redis, RedisKeys } from '@dialog-relay/redis';

/** Whether auto replies of a conversation are stopped. A stop has no expiry: it lasts until resume. */
export interface AutoReplyFlag {
  stop(conversationId: string): Promise<void>;
  resume(conversationId: string): Promise<void>;
  isStopped(conversationId: string): Promise<boolean>;
}

export function createAutoReplyFlag(deps: { redis: Redis; keys: RedisKeys }): AutoReplyFlag {
  const { redis, keys } = deps;
  return {
    async stop(conversationId) {
      await redis.set(keys.autoReplyStopped(conversationId), '1');
    },
    async resume(conversationId) {
      await redis.del(keys.autoReplyStopped(conversationId));
    },
    async isStopped(conversationId) {
      return (await redis.exists(keys.autoReplyStopped(conversationId))) === 1;
    },
  };
}
