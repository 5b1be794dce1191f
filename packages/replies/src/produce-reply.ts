import type { ContextMessage } from '@dialog-relay/contracts';
import { buildReplyPayload } from '@dialog-relay/delivery';
import { replyInput } from './reply-input.js';
import type { DeliveryRecord, TurnBatch } from './reply.types.js';
import { NO_REPLY_METRICS } from './reply-metrics.js';
import type { WorkerDeps } from './worker-deps.js';

/**
 * Produces the reply to a turn's batch: the engine answers the newest message (the one its due
 * message carries) with the conversation's context before it as history (reply-input.ts). Returns
 * the record to store with the attempt's outcome (SETTLE stores it unless one exists, so a re-run
 * after a crash keeps the first stored reply), or undefined when the engine has nothing to send.
 * Rejects when `deps.stopping` aborts the engine's call.
 */
export async function produceReply(
  deps: WorkerDeps,
  batch: TurnBatch,
  context: readonly ContextMessage[],
): Promise<DeliveryRecord | undefined> {
  const newest = batch.messages[batch.messages.length - 1];
  if (!newest) return undefined;
  const { conversationId } = newest;
  const { deliveryId, generation } = batch;
  const { message, history } = replyInput(newest, context);
  const metrics = deps.metrics ?? NO_REPLY_METRICS;
  const engineStart = deps.nowMs();
  let reply: Awaited<ReturnType<WorkerDeps['engine']['reply']>>;
  try {
    reply = await deps.engine.reply({ conversationId, client: newest.client, message, context: history }, deps.stopping);
  } catch (error) {
    if (!deps.stopping?.aborted) metrics.engine('error', (deps.nowMs() - engineStart) / 1000);
    throw error;
  }
  const { content, handoff, sources } = reply;
  metrics.engine(content.length === 0 ? 'empty' : 'reply', (deps.nowMs() - engineStart) / 1000);
  if (content.length === 0) {
    deps.logger.info('engine had nothing to send', { conversation_id: conversationId, delivery_id: deliveryId });
    return undefined;
  }
  const inReplyTo = batch.messages.map((m) => m.message.msg_id);
  const payload = buildReplyPayload({
    deliveryId,
    client: newest.client,
    conversationId,
    inReplyTo,
    replyMsgId: deliveryId,
    groupId: newest.groupId,
    groupName: newest.groupName,
    boundAccountId: newest.boundAccountId,
    customerId: newest.message.from_user_id,
    content,
    handoff,
    sources,
    createTimestamp: Math.floor(deps.nowMs() / 1000),
  });
  return {
    delivery_id: deliveryId,
    conversation_id: conversationId,
    client: newest.client,
    send_url: newest.sendUrl,
    in_reply_to: inReplyTo,
    state: 'pending',
    payload,
    reply_content: JSON.stringify(content),
    generation,
    created_at_ms: deps.nowMs(),
    deadline_ms: newest.receivedAtMs + deps.settings.replyMaxAgeMs,
    dead_reason: '',
    dead_detail: '',
    attempt_base: 0,
    // the turn pauses the conversation when it ends with a handoff (process-turn.ts)
    ...(handoff ? { handoff: true as const } : {}),
  };
}
