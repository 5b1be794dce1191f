import type { JobPayloads } from '@dialog-relay/queue';
import { endTurn } from './process-turn.js';
import { NO_REPLY_METRICS } from './reply-metrics.js';
import type { WorkerDeps } from './worker-deps.js';

const detailOf = (error: Error): string => `${error.name}: ${error.message}`.slice(0, 500);

/**
 * A turn job failed its last allowed run (a Redis error that lasted, a corrupt record, a bug)
 * (docs/service-rules.md §15): the turn's reply becomes a dead letter with reason `failed` — created from the
 * batch when the reply was never produced — and the turn is finished, so the conversation goes on
 * and its next message is answered. Idempotent: running it twice changes nothing more.
 */
export async function turnFailedForGood(deps: WorkerDeps, payload: JobPayloads['conversation-turn'], error: Error): Promise<void> {
  const { conversationId } = payload;
  const log = deps.logger.child({ conversation_id: conversationId });
  const batch = await deps.turns.checkedBatch(conversationId);
  // The job's turn: its own generation's, or a later one it went on to (the batch names the job as its carrier).
  const carried = batch !== undefined && batch !== 'corrupt' && batch.carrier === payload.generation;
  const generation = carried ? batch.generation : payload.generation;
  let pauseMs = 0;
  if (batch === 'corrupt' || (batch !== undefined && batch.generation === generation)) {
    const known = batch === 'corrupt' ? undefined : batch;
    const deliveryId = known?.deliveryId ?? deps.newDeliveryId(conversationId);
    const detail = `${batch === 'corrupt' ? 'corrupt turn record; ' : ''}the turn job failed for good: ${detailOf(error)}`;
    const existing = await deps.deliveries.get(deliveryId);
    // A reply that handed off still pauses the conversation (docs/service-rules.md §17), with the end of the turn.
    if (existing?.handoff) pauseMs = deps.settings.handoffPauseMs ?? 0;
    const newest = known?.messages[known.messages.length - 1];
    if (!existing) {
      await deps.deliveries.create({
        delivery_id: deliveryId,
        conversation_id: conversationId,
        client: newest?.client ?? '',
        send_url: newest?.sendUrl ?? '',
        in_reply_to: known?.messages.map((m) => m.message.msg_id) ?? [],
        state: 'pending',
        payload: '',
        reply_content: '[]',
        generation,
        created_at_ms: deps.nowMs(),
        deadline_ms: deps.nowMs(),
        dead_reason: '',
        dead_detail: '',
        attempt_base: 0,
      });
    }
    if (await deps.deliveries.deadLetter(deliveryId, 'failed', detail, deps.nowMs()))
      (deps.metrics ?? NO_REPLY_METRICS).deadLetter('failed');
    log.error('turn failed for good: reply dead-lettered, conversation goes on', { delivery_id: deliveryId, error: error.message });
  } else {
    log.error('turn failed for good before taking its messages: the next turn takes them', { error: error.message });
  }
  await endTurn(deps, conversationId, generation, { kind: 'over', pauseMs });
}

/** An operator's redelivery failed its last allowed run: it goes back to the dead letters, reason `failed`. */
export async function redeliveryFailedForGood(deps: WorkerDeps, payload: JobPayloads['redeliver'], error: Error): Promise<void> {
  if (
    await deps.deliveries.deadLetter(payload.deliveryId, 'failed', `the redelivery job failed for good: ${detailOf(error)}`, deps.nowMs())
  ) {
    (deps.metrics ?? NO_REPLY_METRICS).deadLetter('failed');
  }
  deps.logger.error('redelivery failed for good', { delivery_id: payload.deliveryId, error: error.message });
}
