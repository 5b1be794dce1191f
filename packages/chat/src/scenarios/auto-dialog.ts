import type { DueMessage } from '../ports.js';
import { contextMessageFrom, conversationIdOf } from '@dialog-relay/conversations';
import { isReplyDue } from '../reply-policy.js';
import { noReads, nothingToCommit, type Scenario } from './scenario.js';

/**
 * CONTRACT §6: record the message (and index its msg_id for assist_dialog), and queue a reply when
 * one is due; the queue itself refuses while auto reply is stopped. Answered 202 with status
 * queued | recorded | suppressed. The three writes go out in one tick (one round trip), in order,
 * so the message is in the context before it is queued.
 */
export const autoDialog: Scenario = (deps, input) => ({ reads: noReads, finish: async () => {
    const { request, client, msgId, sendUrl } = input;
    const info = request.message_info;
    const conversationId = conversationIdOf(client.id, info);
    const due: DueMessage | undefined = isReplyDue(info, client) && sendUrl !== undefined ? {
      client: client.id,
      conversationId,
      msgId,
      sendUrl,
      groupId: info.group_id || undefined,
      groupName: info.group_name,
      customerId: info.from_user_id ?? '',
      boundAccountId: info.to_user_id ?? '',
      receivedAtMs: deps.nowMs(),
    } : undefined;
    const [, , scheduled] = await Promise.all([
      deps.contexts.record(conversationId, [contextMessageFrom(info, msgId)]),
      deps.messageIndex.remember(client.id, msgId, conversationId),
      due ? deps.queue.schedule(due) : undefined,
    ]);
    const status = scheduled === undefined ? 'recorded' : scheduled === 'queued' ? 'queued' : 'suppressed';
    return { status: 202, conversationId, data: { conversation_id: conversationId, msg_id: msgId, status }, commit: nothingToCommit };
} });
