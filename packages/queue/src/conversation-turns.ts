import type { DueMessage } from '@dialog-relay/chat';
import { defineScript, type LuaScript, type Redis, type RedisKeys } from '@dialog-relay/redis';
import * as lua from './conversation-turns.lua.js';

const SCHEDULE = defineScript(lua.SCHEDULE);
const TAKE = defineScript(lua.TAKE);
const FINISH = defineScript(lua.FINISH);
const STOP = defineScript(lua.STOP);
const BEGIN_ATTEMPT = defineScript(lua.BEGIN_ATTEMPT);
const END_ATTEMPT = defineScript(lua.END_ATTEMPT);

export type TakeResult =
  | { kind: 'stale'; current: number }
  | { kind: 'stopped' }
  | { kind: 'empty' }
  | { kind: 'wait'; ms: number }
  | { kind: 'batch'; messages: DueMessage[] };

/** Typed calls of the per-conversation reply protocol (see conversation-turns.lua.ts). */
export interface ConversationTurns {
  schedule(message: DueMessage): Promise<{ kind: 'stopped' } | { kind: 'queued'; generation: number }>;
  take(conversationId: string, generation: number, debounceMs: number): Promise<TakeResult>;
  finish(conversationId: string, generation: number): Promise<{ next: boolean; generation: number }>;
  stop(conversationId: string): Promise<{ cancelled: number; generation: number }>;
  resume(conversationId: string): Promise<void>;
  isStopped(conversationId: string): Promise<boolean>;
  /** null generation: a redelivery, not bound to the conversation's current turn. */
  beginAttempt(conversationId: string, generation: number | null, deliveryId: string, ttlMs: number): Promise<boolean>;
  endAttempt(conversationId: string, deliveryId: string): Promise<void>;
  attemptInFlight(conversationId: string): Promise<boolean>;
  pending(conversationId: string): Promise<DueMessage[]>;
  currentBatch(conversationId: string): Promise<DueMessage[]>;
}

export function createConversationTurns(deps: { redis: Redis; keys: RedisKeys; pendingTtlMs: number }): ConversationTurns {
  const { redis, keys, pendingTtlMs } = deps;
  const run = (script: LuaScript, keyList: string[], args: (string | number)[]): Promise<unknown> => script.run(redis, keyList, args);
  const generationOf = async (conversationId: string): Promise<number> => Number((await redis.get(keys.replyGeneration(conversationId))) ?? '0');
  return {
    async schedule(message) {
      const c = message.conversationId;
      const reply = (await run(SCHEDULE, [keys.pendingReplies(c), keys.pendingSince(c), keys.replyGeneration(c), keys.autoReplyStopped(c), keys.scheduledMessage(c, message.msgId)],
        [JSON.stringify(message), pendingTtlMs])) as [string, string?];
      return reply[0] === 'stopped' ? { kind: 'stopped' } : { kind: 'queued', generation: Number(reply[1]) };
    },
    async take(c, generation, debounceMs) {
      const reply = (await run(TAKE, [keys.pendingReplies(c), keys.pendingSince(c), keys.replyGeneration(c), keys.replyBatch(c, generation), keys.autoReplyStopped(c)],
        [generation, debounceMs, pendingTtlMs])) as [string, string?];
      switch (reply[0]) {
        case 'stale':
          return { kind: 'stale', current: Number(reply[1]) };
        case 'wait':
          return { kind: 'wait', ms: Number(reply[1]) };
        case 'batch':
          return { kind: 'batch', messages: JSON.parse(reply[1] ?? '[]') as DueMessage[] };
        case 'stopped':
          return { kind: 'stopped' };
        default:
          return { kind: 'empty' };
      }
    },
    async finish(c, generation) {
      const reply = (await run(FINISH, [keys.replyGeneration(c), keys.replyBatch(c, generation), keys.pendingReplies(c), keys.autoReplyStopped(c)], [generation])) as [string, string];
      return { next: reply[0] === 'next', generation: Number(reply[1]) };
    },
    async stop(c) {
      const batchPrefix = keys.replyBatch(c, 0).slice(0, -1);
      const [cancelled, generation] = (await run(STOP, [keys.autoReplyStopped(c), keys.pendingReplies(c), keys.replyGeneration(c), batchPrefix], [])) as [number, string];
      return { cancelled, generation: Number(generation) };
    },
    async resume(c) {
      await redis.del(keys.autoReplyStopped(c));
    },
    async isStopped(c) {
      return (await redis.exists(keys.autoReplyStopped(c))) === 1;
    },
    async beginAttempt(c, generation, deliveryId, ttlMs) {
      const go = await run(BEGIN_ATTEMPT, [keys.autoReplyStopped(c), keys.replyGeneration(c), keys.attemptInFlight(c)], [generation ?? '', deliveryId, ttlMs]);
      return go === 1;
    },
    async endAttempt(c, deliveryId) {
      await run(END_ATTEMPT, [keys.attemptInFlight(c)], [deliveryId]);
    },
    async attemptInFlight(c) {
      return (await redis.exists(keys.attemptInFlight(c))) === 1;
    },
    async pending(c) {
      return (await redis.lrange(keys.pendingReplies(c), 0, -1)).map((json) => JSON.parse(json) as DueMessage);
    },
    async currentBatch(c) {
      const json = await redis.get(keys.replyBatch(c, await generationOf(c)));
      return json === null ? [] : (JSON.parse(json) as DueMessage[]);
    },
  };
}
