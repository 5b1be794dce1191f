import type { AutoReplyRequest } from '../ports.js';
import { contextMessageFrom, conversationIdOf } from '@dialog-relay/conversations';
import { isHumanReply, isReplyDue } from '../reply-policy.js';
import { noReads, nothingToCommit, type Scenario } from './scenario.js';

/**
 * docs/service-rules.md §6, §14: record the message (and index its msg_id for assist_dialog), then queue a reply
 * when one is due (the replies refuse while auto reply is stopped or paused), or, for a person
 * writing on the bound account or as staff, cancel the reply not sent yet. Answered 202 with status
 * queued | recorded | suppressed. The writes go out in one tick (one round trip), in order, so the
 * message is in the context before it is queued. Where the deployment asks for it, the 202 waits
 * until replicas hold all of it (docs/design/scaling.md); when they do not, the request fails (503) and
 * the caller's retry with the same msg_id finds the message already queued (SCHEDULE dedupes). The
 * confirmation begins before the writes, so that it can tell that they and its fence reached the same master.
 */
export const autoDialog: Scenario = (deps, input) => ({ reads: noReads, finish: async () => {
    const { request, client, msgId, sendUrl } = input;
    const info = request.message_info;
    const conversationId = conversationIdOf(client.id, info);
    const recorded = contextMessageFrom(info, msgId);
    const due: AutoReplyRequest | undefined = isReplyDue(info, client) && sendUrl !== undefined ? {
      client: client.id,
      conversationId,
      msgId,
      sendUrl,
      groupId: info.group_id || undefined,
      groupName: info.group_name,
      customerId: info.from_user_id ?? '',
      boundAccountId: info.to_user_id ?? '',
      receivedAtMs: deps.nowMs(),
      // The message travels with its reply: the capped context may have dropped it by the time the reply is produced.
      content: recorded.content,
      createTimestamp: recorded.create_timestamp,
    } : undefined;
    const replicated = deps.replication?.begin();
    const [, , scheduled] = await Promise.all([
      deps.contexts.record(conversationId, [recorded]),
      deps.messageIndex.remember(client.id, msgId, conversationId),
      due ? deps.autoReplies.schedule(due) : isHumanReply(info) ? deps.autoReplies.humanReplied(conversationId) : undefined,
    ]);
    await replicated?.confirm();
    const status = scheduled === undefined ? 'recorded' : scheduled === 'queued' ? 'queued' : 'suppressed';
    return { status: 202, conversationId, data: { conversation_id: conversationId, msg_id: msgId, status }, commit: nothingToCommit };
} });
