import { AppError, type AutoDialogStatus, type DueMessage } from '@dialog-relay/contracts';
import { contextMessageFrom, conversationIdOf } from '@dialog-relay/conversations';
import { isHumanReply, isReplyDue } from '../reply-policy.js';
import type { Scenario, ScenarioResult } from './scenario.js';

/** Where the accept script puts the answer's status (a string no answer holds otherwise). */
const STATUS_SLOT = '\u0000status';
/** The answer's status for each outcome of queuing the message. */
const STATUS_OF = { queued: 'queued', stopped: 'suppressed', paused: 'suppressed' } as const satisfies Record<string, AutoDialogStatus>;

/**
 * docs/service-rules.md §6, §14: record the message (and index its msg_id for assist_dialog), then queue a reply
 * when one is due (the replies refuse while auto reply is stopped or paused), or, for a person
 * writing on the bound account or as staff, cancel the reply not sent yet. Answered 202 with status
 * queued | recorded | suppressed. The queuing, the record, the index and the idempotent answer are
 * one script (queuing first: a conversation holding PENDING_MESSAGES_MAX waiting messages ends it,
 * nothing written, 429 pending_limit); then the reply's turn job is added. Where the deployment
 * asks for it, the 202 waits until replicas hold all of it (docs/design/scaling.md); when they do not,
 * the request fails (503) and the caller's retry with the same msg_id finds the message already
 * queued (SCHEDULE dedupes).
 */
export const autoDialog: Scenario = (deps, input) => {
  const finish = (): Promise<ScenarioResult> => {
    const { request, client, msgId, sendUrl } = input;
    const info = request.message_info;
    const conversationId = conversationIdOf(client.id, info);
    const recorded = contextMessageFrom(info, msgId);
    const due: DueMessage | undefined =
      isReplyDue(info, client) && sendUrl !== undefined
        ? {
            // The message travels with its reply: the capped context may have dropped it by the time the reply is produced.
            message: recorded,
            client: client.id,
            conversationId,
            sendUrl,
            groupId: info.group_id || undefined,
            groupName: info.group_name,
            boundAccountId: info.to_user_id ?? '',
            receivedAtMs: deps.nowMs(),
          }
        : undefined;
    const schedule = due ? deps.autoReplies.scheduleStep(due) : undefined;
    const human = !due && isHumanReply(info);
    const data = {
      conversation_id: conversationId,
      msg_id: msgId,
      status: schedule ? STATUS_SLOT : ('recorded' satisfies AutoDialogStatus),
    };
    return Promise.resolve({
      status: 202,
      conversationId,
      data,
      writes: [
        ...(schedule ? [schedule.call] : []),
        deps.contexts.recordStep(conversationId, [recorded]),
        deps.messageIndex.rememberStep(client.id, msgId, conversationId),
      ],
      ...(schedule ? { outcome: { slot: STATUS_SLOT, words: STATUS_OF } } : {}),
      replicated: true,
      async settle(replies: readonly unknown[]) {
        if (schedule) {
          const scheduled = await schedule.settle(replies[0]);
          if (scheduled === 'full') {
            throw new AppError(
              'pending_limit',
              'This conversation already holds the most messages that may wait for their reply; this one was not accepted.',
              {
                retryAfterS: 5,
                detail:
                  'Nothing was recorded or queued: send the message again once the conversation has been answered (PENDING_MESSAGES_MAX).',
              },
            );
          }
          return { ...data, status: STATUS_OF[scheduled] };
        }
        if (human) await deps.autoReplies.humanReplied(conversationId);
        return data;
      },
    });
  };
  // its writes go in admission's script: one script for the whole accept
  return { reads: [], finishEarly: finish, finish };
};
