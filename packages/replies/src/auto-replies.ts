import type { JobProducer } from '@dialog-relay/queue';
import { stepCall, withSettings, type RedisKeys, type Step } from '@dialog-relay/redis';
import type { AbortRequester } from './attempt-aborts.js';
import type { DeliveryStore } from './delivery.store.js';
import { NO_AUTO_REPLY_METRICS, type AutoReplyMetrics, type CancelCause } from './reply-metrics.js';
import { deliveryShardSuffix } from './delivery-id.js';
import { deliveryViewOf, recordOfShownFields } from './delivery.store.js';
import { conversationKeysFor } from './turn-keys.js';
import { CANCEL_PART, RESUME_PART, SCHEDULE_PART, STATUS_PART } from './ingress.lua.js';
import type { DeliveryAttempt, DeliveryView, DueMessage, ReplyStatus, StoredDueMessage, TurnBatch } from './reply.types.js';
import {
  cancelResultOf,
  parseBatch,
  scheduleInput,
  scheduleResultOf,
  type CancelResult,
  type TurnStore,
  type TurnTimings,
} from './turn.store.js';

export interface AutoRepliesDeps {
  turns: TurnStore;
  deliveries: DeliveryStore;
  jobs: Pick<JobProducer, 'addTurn' | 'removeTurn'>;
  aborts: AbortRequester;
  /** Replies cancelled before their attempt (the API's /metrics). */
  metrics?: AutoReplyMetrics;
  /** What the steps a request's script carries need (docs/design/lua-scripts.md "Composed scripts"); the API passes it. */
  steps?: { keys: RedisKeys; timings: TurnTimings };
  settings: {
    debounceMs: number;
    /** HUMAN_PAUSE_S in ms (0: a human's message only cancels the unsent reply). */
    humanPauseMs: number;
    /** How long stop_auto_reply waits at most for an aborted attempt to end (under a second). */
    abortWaitMs: number;
  };
}

/** The ingress side of auto replies (docs/service-rules.md §6, §8, §14): schedule, human takeover, stop, resume, status. */
export function createAutoReplies(deps: AutoRepliesDeps) {
  const { turns, deliveries, jobs, aborts, settings } = deps;
  const metrics = deps.metrics ?? NO_AUTO_REPLY_METRICS;

  /**
   * Cancels the live turn (one script), then its record, its waiting job and every attempt in flight
   * (aborted, awaited up to waitMs). Counts the replies cancelled here that were not in flight:
   * the waiting messages (one reply) and a produced reply whose record this moved to cancelled.
   */
  const cancelTurn = async (
    conversationId: string,
    cause: CancelCause,
    options: { setStop: boolean; pauseMs: number; waitMs: number },
  ): Promise<number> => afterCancel(conversationId, await turns.cancel(conversationId, options), cause, options.waitMs);

  /**
   * What follows a cancel script: its record, its waiting job (only when messages were waiting or a
   * turn had taken some, waiting to retry: a job exists only then; an older one can no longer
   * deliver, its generation is gone) and every
   * attempt in flight (aborted, awaited up to waitMs). Counts the replies cancelled here that were
   * not in flight: the waiting messages (one reply) and a produced reply whose record this moved to cancelled.
   */
  const afterCancel = async (conversationId: string, result: CancelResult, cause: CancelCause, waitMs: number): Promise<number> => {
    const [, recordCancelled] = await Promise.all([
      result.waiting > 0 || result.batchDeliveryId !== '' ? jobs.removeTurn(conversationId, result.generation) : undefined,
      result.batchDeliveryId === '' ? false : deliveries.cancel(result.batchDeliveryId),
      Promise.all(result.inFlightDeliveryIds.map((deliveryId) => aborts.abort(conversationId, deliveryId, waitMs))),
    ]);
    // An attempt in flight is the worker's to count (in_flight), even though its record is cancelled here.
    const notInFlight = recordCancelled && !result.inFlightDeliveryIds.includes(result.batchDeliveryId);
    const replies = (result.waiting > 0 ? 1 : 0) + (notInFlight ? 1 : 0);
    if (replies > 0) metrics.pendingCancelled(cause, replies);
    return result.cancelled;
  };

  const stepDeps = (): { keys: RedisKeys; timings: TurnTimings } => {
    if (!deps.steps) throw new Error('createAutoReplies: the steps of a request script need `steps` (keys and timings)');
    return deps.steps;
  };
  // the status part's arguments of each shard, made the first time a status of that shard is read
  const statusArgsOfShard: StatusArgs[] = [];
  // the parts, made once: what every call passes alike is written into their text (docs/design/lua-scripts.md)
  const statusParts = {
    plain: withSettings(STATUS_PART, { limit: STATUS_DELIVERIES, keep: 'none', keptMax: 0 }),
    kept: withSettings(STATUS_PART, { limit: STATUS_DELIVERIES, keep: 'reads', keptMax: STATUS_KEPT_MAX_BYTES }),
  };
  let schedulePart: ReturnType<typeof schedulePartOf> | undefined;
  const afterSchedule = async (message: DueMessage, raw: unknown): Promise<ScheduleOutcome> => {
    const result = scheduleResultOf(raw);
    if (result.kind !== 'queued') return result.kind;
    if (result.opensTurn) await jobs.addTurn(message.conversationId, result.generation, settings.debounceMs);
    return 'queued';
  };
  const status = async (
    parts: { stopped: boolean; pausedUntilMs: number | null; pending: StoredDueMessage[]; batch: TurnBatch | undefined },
    latest: DeliveryView[],
  ): Promise<ReplyStatus> => {
    const pending: ReplyStatus['pending'] = [];
    if (parts.batch && parts.batch.messages.length > 0)
      pending.push({ msg_ids: parts.batch.messages.map((m) => m.message.msg_id), state: 'producing' });
    if (parts.pending.length > 0) pending.push({ msg_ids: parts.pending.map((m) => m.message.msg_id), state: 'waiting' });
    return Promise.resolve({
      auto_reply: parts.stopped ? 'stopped' : 'active',
      paused_until: parts.pausedUntilMs === null ? null : new Date(parts.pausedUntilMs).toISOString(),
      pending,
      deliveries: latest,
    });
  };

  /** A status part's reads (STATUS_PART's reply) as the status they show. */
  const statusOfReads = async (raw: unknown): Promise<ReplyStatus> => {
    const [stopped, paused, pending, batch, views] = raw as [
      number,
      string | null,
      string[],
      string | null,
      ([string, (string | null)[], string[]] | [string])[],
    ];
    const latest = await Promise.all(
      views.map(async (view): Promise<DeliveryView | undefined> => {
        const [id, fields, attempts] = view;
        if (fields === undefined || attempts === undefined) {
          const [record, stored] = await Promise.all([deliveries.get(id), deliveries.attempts(id)]);
          return deliveryViewOf(id, record, stored);
        }
        return deliveryViewOf(
          id,
          recordOfShownFields(fields),
          attempts.map((json) => JSON.parse(json) as DeliveryAttempt),
        );
      }),
    );
    return status(
      {
        stopped: stopped === 1,
        pausedUntilMs: paused === null ? null : Number(paused),
        pending: pending.map((json) => JSON.parse(json) as StoredDueMessage),
        batch: batch === null ? undefined : parseBatch(batch),
      },
      latest.filter((v): v is DeliveryView => v !== undefined),
    );
  };

  return {
    async schedule(message: DueMessage): Promise<ScheduleOutcome> {
      const result = await turns.schedule(message);
      if (result.kind !== 'queued') return result.kind;
      if (result.opensTurn) await jobs.addTurn(message.conversationId, result.generation, settings.debounceMs);
      return 'queued';
    },
    /** schedule() as a step of auto_dialog's accept script; it sets `shared.outcome` (queued | stopped | paused | full). */
    scheduleStep(message: DueMessage): Step<ScheduleOutcome> {
      const { keys, timings } = stepDeps();
      const input = scheduleInput(keys, timings, message);
      schedulePart ??= schedulePartOf(timings);
      const call = stepCall(schedulePart, input.keys, { message: input.args.message, conversationId: input.args.conversationId });
      return { call, settle: (raw) => afterSchedule(message, raw) };
    },
    async humanReplied(conversationId: string): Promise<void> {
      // The 202 does not wait for the aborted attempt to end.
      await cancelTurn(conversationId, 'human', { setStop: false, pauseMs: settings.humanPauseMs, waitMs: 0 });
    },
    async stop(conversationId: string): Promise<number> {
      return cancelTurn(conversationId, 'stop', { setStop: true, pauseMs: 0, waitMs: settings.abortWaitMs });
    },
    /** stop() as a step of the request's write script. */
    stopStep(conversationId: string): Step<number> {
      const call = stepCall(CANCEL_PART, conversationKeysFor(stepDeps().keys, conversationId, CANCEL_PART.keys), {
        stop: '1',
        pauseMs: 0,
        conversationId,
      });
      return { call, settle: (raw) => afterCancel(conversationId, cancelResultOf(raw), 'stop', settings.abortWaitMs) };
    },
    resume: (conversationId: string): Promise<void> => turns.resume(conversationId),
    resumeStep: (conversationId: string): Step<void> => {
      const { keys } = stepDeps();
      return {
        call: stepCall(RESUME_PART, { stop: keys.autoReplyStopped(conversationId), paused: keys.pausedUntil(conversationId) }, {}),
        settle: () => Promise.resolve(),
      };
    },
    async status(conversationId: string): Promise<ReplyStatus> {
      const [turn, latest] = await Promise.all([turns.snapshot(conversationId), deliveries.latestForConversation(conversationId, 10)]);
      return status(turn, latest);
    },
    /**
     * status() as a step of the request's first script: everything in it, the delivery records
     * included; only a delivery made in another shard (before a QUEUE_SHARDS change) is read after.
     * `keepReads`: the part also leaves its reads, as JSON, for the script's COMPLETE part to store as
     * the request's idempotent answer (statusOfKeptReads renders them for a replay).
     */
    statusStep(conversationId: string, keepReads = false): Step<ReplyStatus> {
      const { keys } = stepDeps();
      const shard = keys.shardOf(conversationId);
      const call = stepCall(
        keepReads ? statusParts.kept : statusParts.plain,
        conversationKeysFor(keys, conversationId, STATUS_PART.keys),
        (statusArgsOfShard[shard] ??= statusArgsOf(keys, shard)),
      );
      return { call, settle: statusOfReads };
    },
    /**
     * The status a status step's kept reads show (a replayed answer): the same as its settle gives
     * for the script's reply, the reads having been JSON (cjson) in between.
     */
    statusOfKeptReads(kept: unknown): Promise<ReplyStatus> {
      return statusOfReads(fromCjson(kept));
    },
  };
}

/**
 * A value cjson encoded in a script, decoded, as the script's reply would have given it: Lua's false
 * (a missing value) is null, and an empty table, which cjson writes as {}, an empty list.
 */
function fromCjson(value: unknown): unknown {
  if (value === false) return null;
  if (Array.isArray(value)) return value.map(fromCjson);
  if (value !== null && typeof value === 'object') return [];
  return value;
}

/** The latest deliveries auto_reply_status shows. */
const STATUS_DELIVERIES = 10;
/**
 * The longest kept reads a status stores as its idempotent answer (bytes of JSON): a few deliveries
 * and waiting messages fit; a longer status is stored as its rendered answer, by a second script.
 */
export const STATUS_KEPT_MAX_BYTES = 16_384;

/** The status part's arguments (STATUS_PART, its limit in its text): the same for every conversation of one shard. */
type StatusArgs = Readonly<{ deliveryPrefix: string; shardSuffix: string }>;

/** A shard's StatusArgs: its delivery records' key prefix, and the suffix of the delivery ids made in it. */
function statusArgsOf(keys: RedisKeys, shard: number): StatusArgs {
  const shardSuffix = deliveryShardSuffix(shard);
  return Object.freeze({ deliveryPrefix: keys.delivery(shardSuffix).slice(0, -shardSuffix.length), shardSuffix });
}

/** SCHEDULE_PART with the pending keys' expiry and the cap of waiting messages in its text. */
const schedulePartOf = (timings: TurnTimings) =>
  withSettings(SCHEDULE_PART, { ttlMs: timings.pendingTtlMs, maxPending: timings.maxPending ?? 0 });

/** What queuing a due message came to: 'full' when the conversation holds PENDING_MESSAGES_MAX waiting messages (nothing queued). */
export type ScheduleOutcome = 'queued' | 'stopped' | 'paused' | 'full';

export type AutoReplies = ReturnType<typeof createAutoReplies>;
