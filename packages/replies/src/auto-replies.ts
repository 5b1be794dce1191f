import type { JobProducer } from '@dialog-relay/queue';
import type { AbortRequester } from './attempt-aborts.js';
import type { DeliveryStore } from './delivery.store.js';
import { NO_AUTO_REPLY_METRICS, type AutoReplyMetrics, type CancelCause } from './reply-metrics.js';
import type { DueMessage, ReplyStatus } from './reply.types.js';
import type { TurnStore } from './turn.store.js';

export interface AutoRepliesDeps {
  turns: TurnStore;
  deliveries: DeliveryStore;
  jobs: Pick<JobProducer, 'addTurn' | 'removeTurn'>;
  aborts: AbortRequester;
  /** Replies cancelled before their attempt (the API's /metrics). */
  metrics?: AutoReplyMetrics;
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
  const cancelTurn = async (conversationId: string, cause: CancelCause, options: { setStop: boolean; pauseMs: number; waitMs: number }): Promise<number> => {
    const result = await turns.cancel(conversationId, options);
    const [, recordCancelled] = await Promise.all([
      jobs.removeTurn(conversationId, result.generation),
      result.batchDeliveryId === '' ? false : deliveries.cancel(result.batchDeliveryId),
      Promise.all(result.inFlightDeliveryIds.map((deliveryId) => aborts.abort(conversationId, deliveryId, options.waitMs))),
    ]);
    // An attempt in flight is the worker's to count (in_flight), even though its record is cancelled here.
    const notInFlight = recordCancelled && !result.inFlightDeliveryIds.includes(result.batchDeliveryId);
    const replies = (result.waiting > 0 ? 1 : 0) + (notInFlight ? 1 : 0);
    if (replies > 0) metrics.pendingCancelled(cause, replies);
    return result.cancelled;
  };

  return {
    async schedule(message: DueMessage): Promise<'queued' | 'stopped' | 'paused'> {
      const result = await turns.schedule(message);
      if (result.kind !== 'queued') return result.kind;
      await jobs.addTurn(message.conversationId, result.generation, settings.debounceMs);
      return 'queued';
    },
    async humanReplied(conversationId: string): Promise<void> {
      // The 202 does not wait for the aborted attempt to end.
      await cancelTurn(conversationId, 'human', { setStop: false, pauseMs: settings.humanPauseMs, waitMs: 0 });
    },
    async stop(conversationId: string): Promise<number> {
      return cancelTurn(conversationId, 'stop', { setStop: true, pauseMs: 0, waitMs: settings.abortWaitMs });
    },
    resume: (conversationId: string): Promise<void> => turns.resume(conversationId),
    async status(conversationId: string): Promise<ReplyStatus> {
      const [turn, latest] = await Promise.all([turns.snapshot(conversationId), deliveries.latestForConversation(conversationId, 10)]);
      const pending: ReplyStatus['pending'] = [];
      if (turn.batch && turn.batch.messages.length > 0) pending.push({ msg_ids: turn.batch.messages.map((m) => m.msgId), state: 'producing' });
      if (turn.pending.length > 0) pending.push({ msg_ids: turn.pending.map((m) => m.msgId), state: 'waiting' });
      return {
        auto_reply: turn.stopped ? 'stopped' : 'active',
        paused_until: turn.pausedUntilMs === null ? null : new Date(turn.pausedUntilMs).toISOString(),
        pending,
        deliveries: latest,
      };
    },
  };
}

export type AutoReplies = ReturnType<typeof createAutoReplies>;
