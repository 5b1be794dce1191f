import { contextMessageFrom, conversationIdOf } from '@dialog-relay/conversations';
import { isReplyDue } from '../reply-policy.js';
import { nothingToCommit, type ScenarioDeps, type ScenarioInput, type ScenarioResult } from './scenario.js';

/**
 * CONTRACT §6: record the message (and index its msg_id for assist_dialog), then queue a reply when
 * one is due and auto reply is not stopped. Answered 202 with status queued | recorded | suppressed.
 * The message is recorded before it is queued, so the worker always finds it in the context.
 */
export async function autoDialog(deps: ScenarioDeps, input: ScenarioInput): Promise<ScenarioResult> {
  const { request, client, msgId, sendUrl } = input;
  const info = request.message_info;
  const conversationId = conversationIdOf(client.id, info);
  const due = isReplyDue(info, client);
  const [, , stopped] = await Promise.all([
    deps.contexts.record(conversationId, [contextMessageFrom(info, msgId)]),
    deps.messageIndex.remember(client.id, msgId, conversationId),
    due ? deps.queue.isStopped(conversationId) : Promise.resolve(false),
  ]);
  let status: 'queued' | 'recorded' | 'suppressed' = 'recorded';
  if (due && stopped) status = 'suppressed';
  if (due && !stopped && sendUrl !== undefined) {
    await deps.queue.schedule({
      client: client.id,
      conversationId,
      msgId,
      sendUrl,
      groupId: info.group_id || undefined,
      groupName: info.group_name,
      customerId: info.from_user_id ?? '',
      boundAccountId: info.to_user_id ?? '',
      receivedAtMs: deps.nowMs(),
    });
    status = 'queued';
  }
  return { status: 202, conversationId, data: { conversation_id: conversationId, msg_id: msgId, status }, commit: nothingToCommit };
}
