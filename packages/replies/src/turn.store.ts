import type { Config } from '@dialog-relay/config';
import type { ContextMessage } from '@dialog-relay/contracts';
import { parseContextMessages } from '@dialog-relay/conversations';
import { replyQueueKeys } from '@dialog-relay/queue';
import { keptPerKey, runScript, type Redis, type RedisKeys } from '@dialog-relay/redis';
import type { DueMessage, StoredDueMessage, TurnBatch } from './reply.types.js';
import { conversationKeys, conversationKeysFor } from './turn-keys.js';
import { BEGIN_ATTEMPT, CANCEL, CLAIM_OVERDUE, FINISH, SCHEDULE, takeScript, WAITING_TURN } from './turns.lua.js';
import { reachKey } from './reach.lua.js';

export type TakeResult =
  | { kind: 'stale'; current: number }
  /** The live batch is served by another job (one that went on to it from an earlier turn): nothing to do. */
  | { kind: 'carried' }
  | { kind: 'stopped' }
  | { kind: 'empty' }
  | { kind: 'wait'; ms: number }
  /**
   * opened: the batch was taken by this call, its attempt marked in flight and the context read
   * (TAKE); undefined for a batch taken before (a retry, a re-run), whose attempt is not open yet.
   */
  | { kind: 'batch'; batch: TurnBatch; opened: { context: ContextMessage[] } | undefined };

export interface CancelResult {
  /** Messages that lost their pending reply. */
  cancelled: number;
  /** The delivery id of the turn that was live ('' when none had taken its messages). */
  batchDeliveryId: string;
  /** The delivery ids of the attempts in flight (a turn's, and operators' replays beside it); none: []. */
  inFlightDeliveryIds: string[];
  /** Server ms until which auto replies are paused (0: not paused). */
  pausedUntilMs: number;
  /** The generation that was live (its job, if waiting or delayed, can be removed). */
  generation: number;
  /** Of `cancelled`, the messages still waiting for their turn (no worker had taken them). */
  waiting: number;
}

/** What queuing a due message did: 'full' when the conversation already holds `maxPending` waiting messages (nothing queued). */
export type ScheduleResult =
  | { kind: 'stopped' }
  | { kind: 'paused' }
  | { kind: 'full'; max: number }
  /** opensTurn: nothing waited and no batch was taken, so job `generation` may not exist yet and the caller adds it. */
  | { kind: 'queued'; generation: number; opensTurn: boolean };

/** SCHEDULE's reply, read. */
export const scheduleResultOf = (raw: unknown): ScheduleResult => {
  const reply = raw as [string, (string | number)?, number?];
  if (reply[0] === 'stopped' || reply[0] === 'paused') return { kind: reply[0] };
  if (reply[0] === 'full') return { kind: 'full', max: Number(reply[1]) };
  return { kind: 'queued', generation: Number(reply[1]), opensTurn: reply[2] !== 0 };
};

/** CANCEL's reply, read. */
export const cancelResultOf = (raw: unknown): CancelResult => {
  const [cancelled, batchDeliveryId, inFlightDeliveryIds, pausedUntilMs, generation, waiting] = raw as [
    number,
    string,
    string[],
    number,
    string,
    number,
  ];
  return { cancelled, batchDeliveryId, inFlightDeliveryIds, pausedUntilMs, generation: Number(generation), waiting };
};

/**
 * How much of a conversation's context a turn reads for its engine (ReplyEngine): `window`, how many
 * messages before the answered one (none: all), after it only the bot's replies; `customerTexts`,
 * for an engine that reads only the customer's texts, only that many of the customer's messages with
 * text within the window, and nothing after it (readHistoryLua).
 */
export interface ContextReach {
  window?: number;
  customerTexts?: number;
}

/** Typed calls of the per-conversation turn protocol (turns.lua.ts). */
export interface TurnStore {
  /** How long an attempt's in-flight marker lasts from its opening (config: longer than one attempt). */
  readonly attemptMarkerTtlMs: number;
  schedule(message: DueMessage): Promise<ScheduleResult>;
  /** reach: how much of the context the engine reads (none: all of it). */
  take(conversationId: string, generation: number, deliveryId: string, reach?: ContextReach): Promise<TakeResult>;
  /** pauseMs > 0 (a handoff): pause the conversation's auto replies that long, dropping the messages that wait. */
  finish(conversationId: string, generation: number, pauseMs?: number): Promise<{ next: boolean; generation: number }>;
  /** stop_auto_reply (setStop) or a human's message (pauseMs, possibly 0). */
  cancel(conversationId: string, options: { setStop: boolean; pauseMs: number }): Promise<CancelResult>;
  resume(conversationId: string): Promise<void>;
  /** null generation: a redelivery, not bound to the conversation's current turn. */
  beginAttempt(conversationId: string, generation: number | null, deliveryId: string): Promise<boolean>;
  /** The live turn's batch, checked (for a job that failed for good: it may be corrupt); undefined when none. */
  checkedBatch(conversationId: string): Promise<TurnBatch | 'corrupt' | undefined>;
  /**
   * The safety net (docs/design/reply-protocol.md): conversations of one shard whose messages have waited
   * unchecked longer than olderThanMs; each is marked checked now.
   */
  claimOverdue(shard: number, olderThanMs: number, limit: number): Promise<string[]>;
  /** The generation of the job that must exist while the conversation's messages wait (the job serving the live batch, else the current generation's); undefined when nothing waits (it leaves the net). */
  waitingTurn(conversationId: string): Promise<number | undefined>;
  /** Everything auto_reply_status shows of the turn, in one round trip. */
  snapshot(
    conversationId: string,
  ): Promise<{ stopped: boolean; pausedUntilMs: number | null; pending: StoredDueMessage[]; batch: TurnBatch | undefined }>;
}

export interface TurnTimings {
  debounceMs: number;
  maxWaitMs: number;
  /** Expiry of pending messages and batches (config: longer than a reply can live). */
  pendingTtlMs: number;
  /** Expiry of the in-flight marker (config: longer than one attempt). */
  attemptMarkerTtlMs: number;
  /** PENDING_MESSAGES_MAX: waiting messages a conversation may hold (none: no cap). */
  maxPending?: number;
}

/** A batch as the scripts stored it (trusted: the hot path). */
export const parseBatch = (json: string): TurnBatch => {
  const raw = JSON.parse(json) as { delivery_id: string; generation: number; carrier?: number; messages: StoredDueMessage[] };
  return { deliveryId: raw.delivery_id, generation: raw.generation, carrier: raw.carrier ?? raw.generation, messages: raw.messages };
};

/** What a dead letter reads of each message: a batch whose messages lack it is corrupt. */
const isDueMessage = (m: unknown): boolean => {
  const fields = (m ?? {}) as { message?: { msg_id?: unknown } | null; client?: unknown; sendUrl?: unknown };
  return (
    typeof m === 'object' &&
    typeof fields.message?.msg_id === 'string' &&
    typeof fields.client === 'string' &&
    typeof fields.sendUrl === 'string'
  );
};

/** A stored batch checked field by field, for a turn that failed for good (docs/service-rules.md §15). */
function checkBatch(raw: string | null): TurnBatch | 'corrupt' | undefined {
  if (raw === null) return undefined;
  try {
    const parsed = JSON.parse(raw) as { delivery_id?: unknown; generation?: unknown; carrier?: unknown; messages?: unknown } | null;
    if (
      typeof parsed?.delivery_id !== 'string' ||
      typeof parsed.generation !== 'number' ||
      (parsed.carrier !== undefined && typeof parsed.carrier !== 'number') ||
      !Array.isArray(parsed.messages) ||
      !parsed.messages.every(isDueMessage)
    )
      return 'corrupt';
    const carrier = typeof parsed.carrier === 'number' ? parsed.carrier : parsed.generation;
    return { deliveryId: parsed.delivery_id, generation: parsed.generation, carrier, messages: parsed.messages as StoredDueMessage[] };
  } catch {
    return 'corrupt';
  }
}

/**
 * A due message is stored with its content only up to this many characters of JSON (any text
 * message fits: 10,000 characters are at most 60,000 escaped, and the ids a few hundred): large
 * inline files would make a debounced batch, built in one Lua call, as large as every file of the
 * burst. Beyond it the message is found in the context (docs/design/reply-protocol.md, "What a due
 * message holds").
 */
const DUE_MESSAGE_MAX_CHARS = 65_536;

/** The stored form of a due message: without its content when that would make it larger than DUE_MESSAGE_MAX_CHARS. */
function dueJson(message: DueMessage): string {
  const json = JSON.stringify(message);
  return json.length <= DUE_MESSAGE_MAX_CHARS ? json : JSON.stringify({ ...message, message: { ...message.message, content: undefined } });
}

/**
 * SCHEDULE's keys and arguments for a due message: the turn store runs the script alone, the ingress
 * runs it as a part of auto_dialog's accept script (auto-replies.ts scheduleStep).
 */
export function scheduleInput(keys: RedisKeys, timings: TurnTimings, message: DueMessage) {
  return {
    keys: {
      ...conversationKeysFor(keys, message.conversationId, SCHEDULE.keys),
      scheduled: keys.scheduledMessage(message.conversationId, message.message.msg_id),
    },
    args: {
      message: dueJson(message),
      ttlMs: timings.pendingTtlMs,
      conversationId: message.conversationId,
      maxPending: timings.maxPending ?? 0,
    },
  };
}

export function createTurnStore(deps: { redis: Redis; keys: RedisKeys; timings: TurnTimings }): TurnStore {
  const { redis, keys, timings } = deps;
  const turnKeys = (c: string) => conversationKeys(keys, c);
  const queueKeys = keys.shardTags.map((_, shard) => replyQueueKeys(keys.bullPrefix(shard)));
  // Made once (once per engine reach asked for: one engine, one reach): what every call would pass
  // alike is written into the script's text.
  const takeSettings = {
    debounceMs: timings.debounceMs,
    maxWaitMs: timings.maxWaitMs,
    batchTtlMs: timings.pendingTtlMs,
    markerTtlMs: timings.attemptMarkerTtlMs,
  };
  const takeFor = keptPerKey(reachKey, (reach: ContextReach | undefined) => takeScript(takeSettings, reach));
  return {
    attemptMarkerTtlMs: timings.attemptMarkerTtlMs,
    async schedule(message) {
      const input = scheduleInput(keys, timings, message);
      return scheduleResultOf(await runScript(redis, SCHEDULE, input.keys, input.args));
    },
    async take(c, generation, deliveryId, reach) {
      const reply = (await runScript(
        redis,
        takeFor(reach),
        { ...turnKeys(c), ...queueKeys[keys.shardOf(c)]! },
        { generation, deliveryId, conversationId: c },
      )) as [string, string?, string[]?];
      switch (reply[0]) {
        case 'stale':
          return { kind: 'stale', current: Number(reply[1]) };
        case 'wait':
          return { kind: 'wait', ms: Number(reply[1]) };
        case 'batch':
          return { kind: 'batch', batch: parseBatch(reply[1] ?? ''), opened: undefined };
        case 'taken':
          return {
            kind: 'batch',
            batch: parseBatch(reply[1] ?? ''),
            opened: { context: parseContextMessages(reply[2]) },
          };
        case 'stopped':
          return { kind: 'stopped' };
        case 'carried':
          return { kind: 'carried' };
        default:
          return { kind: 'empty' };
      }
    },
    async finish(c, generation, pauseMs = 0) {
      const reply = (await runScript(redis, FINISH, turnKeys(c), { generation, pauseMs, conversationId: c })) as [string, string];
      return { next: reply[0] === 'next', generation: Number(reply[1]) };
    },
    async cancel(c, options) {
      return cancelResultOf(
        await runScript(redis, CANCEL, turnKeys(c), { stop: options.setStop ? '1' : '0', pauseMs: options.pauseMs, conversationId: c }),
      );
    },
    async resume(c) {
      // Ends a stop, and a pause (a human's, a handoff's) early; both keys share the conversation's slot.
      await redis.del(keys.autoReplyStopped(c), keys.pausedUntil(c));
    },
    async beginAttempt(c, generation, deliveryId) {
      const go = await runScript(redis, BEGIN_ATTEMPT, turnKeys(c), {
        generation: generation ?? '',
        deliveryId,
        ttlMs: timings.attemptMarkerTtlMs,
      });
      return go === 1;
    },
    checkedBatch: async (c) => checkBatch(await redis.get(keys.replyBatch(c))),
    async claimOverdue(shard, olderThanMs, limit) {
      return (await runScript(redis, CLAIM_OVERDUE, { waiting: keys.waitingConversations(shard) }, { olderThanMs, limit })) as string[];
    },
    async waitingTurn(c) {
      const reply = (await runScript(redis, WAITING_TURN, turnKeys(c), { conversationId: c })) as [string, string?];
      return reply[0] === 'due' ? Number(reply[1]) : undefined;
    },
    async snapshot(c) {
      const k = turnKeys(c);
      const [stopped, paused, pending, batch] = await Promise.all([
        redis.exists(k.stop),
        redis.get(k.paused),
        redis.lrange(k.pending, 0, -1),
        redis.get(k.batch),
      ]);
      return {
        stopped: stopped === 1,
        pausedUntilMs: paused === null ? null : Number(paused),
        pending: pending.map((json) => JSON.parse(json) as StoredDueMessage),
        batch: batch === null ? undefined : parseBatch(batch),
      };
    },
  };
}

/** The turn timings of a configuration (computed once in config). */
export const turnTimingsOf = (
  config: Pick<Config, 'autoReplyDebounceMs' | 'autoReplyMaxWaitMs' | 'replies' | 'pendingMessagesMax'>,
): TurnTimings => ({
  maxPending: config.pendingMessagesMax,
  debounceMs: config.autoReplyDebounceMs,
  maxWaitMs: config.autoReplyMaxWaitMs,
  pendingTtlMs: config.replies.pendingTtlMs,
  attemptMarkerTtlMs: config.replies.attemptMarkerTtlMs,
});
