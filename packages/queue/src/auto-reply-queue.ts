import type { AutoReplyQueue } from '@dialog-relay/chat';
import type { Queue } from 'bullmq';
import type { ConversationTurns } from './conversation-turns.js';
import { deliveryIdOf, type DeliveryRecords } from './delivery-records.js';
import { JOB_NAMES, turnJobId, type JobPayloads } from './job-catalog.js';

export interface AutoReplyQueueDeps {
  queue: Queue;
  turns: ConversationTurns;
  deliveries: DeliveryRecords;
  debounceMs: number;
  /** How long stop_auto_reply waits at most for an attempt in flight to end (the delivery time-out). */
  stopWaitMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Adds the conversation's turn job unless it exists (BullMQ ignores a duplicate job id). */
export async function addTurnJob(queue: Queue, conversationId: string, generation: number, delayMs: number): Promise<void> {
  const payload: JobPayloads['conversation-turn'] = { conversationId, generation };
  await queue.add(JOB_NAMES.conversationTurn, payload, { jobId: turnJobId(conversationId, generation), delay: delayMs });
}

/** The ingress side of auto replies (CONTRACT §6, §8), on the reply protocol and BullMQ. */
export function createAutoReplyQueue(deps: AutoReplyQueueDeps): AutoReplyQueue {
  const { queue, turns, deliveries, debounceMs, stopWaitMs } = deps;
  const sleep = deps.sleep ?? defaultSleep;
  return {
    async schedule(message) {
      const result = await turns.schedule(message);
      if (result.kind === 'stopped') return 'stopped';
      await addTurnJob(queue, message.conversationId, result.generation, debounceMs);
      return 'queued';
    },
    async stop(conversationId) {
      const { cancelled, generation } = await turns.stop(conversationId);
      // A waiting or delayed job of the old generation is removed; an active one cannot deliver any more
      // (the generation moved on) and is waited for below.
      await Promise.all([
        queue.remove(turnJobId(conversationId, generation)).catch(() => 0),
        deliveries.cancel(deliveryIdOf(conversationId, generation)),
      ]);
      const deadline = Date.now() + stopWaitMs;
      while (Date.now() < deadline && (await turns.attemptInFlight(conversationId))) await sleep(20);
      return cancelled;
    },
    resume: (conversationId) => turns.resume(conversationId),
    isStopped: (conversationId) => turns.isStopped(conversationId),
    async status(conversationId) {
      const [pending, batch, latest] = await Promise.all([
        turns.pending(conversationId),
        turns.currentBatch(conversationId),
        deliveries.latestForConversation(conversationId, 10),
      ]);
      const pendingReplies = [];
      if (batch.length > 0) pendingReplies.push({ msg_ids: batch.map((m) => m.msgId), state: 'producing' });
      if (pending.length > 0) pendingReplies.push({ msg_ids: pending.map((m) => m.msgId), state: 'waiting' });
      return { pending: pendingReplies, deliveries: latest };
    },
  };
}
