import { AppError, COMMANDS, type ResumeAnswerData, type StatusAnswerData, type StopAnswerData } from '@dialog-relay/contracts';
import { conversationIdOf } from '@dialog-relay/conversations';
import { settled, type ReplayedData, type Scenario, type ScenarioResult } from './scenario.js';

/** Where the write script puts the number of messages a stop cancelled (a string no answer holds otherwise). */
const CANCELLED_SLOT = '\u0000cancelled';
/** Where the first script puts what a status read, as JSON, in the answer it stores (its `reads`). */
const READS_SLOT = '\u0000reads';

/**
 * docs/service-rules.md §8: the command is content, trimmed (validated before); the conversation is the one of
 * §5. Commands steer the conversation and are not recorded in its context: they are not chat.
 * Each command is one script: auto_reply_status reads everything in the request's first script (with
 * a msg_id, its reads are its stored answer there too: answerOfReads); stop and resume write in it,
 * with the idempotent answer (finishEarly).
 */
export const cmdDialog: Scenario = (deps, input) => {
  const conversationId = conversationIdOf(input.client.id, input.request.message_info);
  const status = input.command === 'auto_reply_status' ? deps.autoReplies.statusStep(conversationId, input.answerInReads) : undefined;
  const finish = async (replies: readonly unknown[]): Promise<ScenarioResult> => {
    switch (input.command) {
      case 'stop_auto_reply': {
        const stop = deps.autoReplies.stopStep(conversationId);
        return {
          status: 200,
          conversationId,
          data: { conversation_id: conversationId, command: 'stop_auto_reply', auto_reply: 'stopped', cancelled: CANCELLED_SLOT },
          writes: [stop.call],
          outcome: { slot: CANCELLED_SLOT, words: '*' },
          async settle([reply]) {
            const cancelled = await stop.settle(reply);
            input.logger.info('auto reply stopped', { conversation_id: conversationId, cancelled });
            return {
              conversation_id: conversationId,
              command: 'stop_auto_reply',
              auto_reply: 'stopped',
              cancelled,
            } satisfies StopAnswerData;
          },
        };
      }
      case 'resume_auto_reply': {
        const data = { conversation_id: conversationId, command: 'resume_auto_reply', auto_reply: 'active' } satisfies ResumeAnswerData;
        return { status: 200, conversationId, data, writes: [deps.autoReplies.resumeStep(conversationId).call], settle: settled(data) };
      }
      case 'auto_reply_status': {
        const data = {
          conversation_id: conversationId,
          command: 'auto_reply_status',
          ...(await status!.settle(replies[0])),
        } satisfies StatusAnswerData;
        return { status: 200, conversationId, data, writes: [], settle: settled(data) };
      }
      case undefined:
        throw new AppError('unknown_command', `cmd_dialog needs a command: ${COMMANDS.join(', ')}.`);
    }
  };
  return {
    reads: status ? [status.call] : [],
    // a stop's and a resume's writes need no reads: they run in admission's script, with the answer
    ...(input.command === 'stop_auto_reply' || input.command === 'resume_auto_reply' ? { finishEarly: () => finish([]) } : {}),
    // a status with a msg_id, on one Redis or Sentinel: its reads are its stored answer, in its one script
    ...(status && input.answerInReads
      ? {
          answerOfReads: {
            status: 200,
            conversationId,
            data: { conversation_id: conversationId, command: 'auto_reply_status', reads: READS_SLOT },
            outcome: { slot: READS_SLOT, words: '*' },
          },
        }
      : {}),
    finish,
  };
};

/**
 * A stored cmd_dialog answer as sent again: a status stored by its first script holds what it read
 * (`reads`), rendered here as its first answer was; any other is sent as stored.
 */
export const replayedCmdData: ReplayedData = async (deps, data) => {
  if (typeof data !== 'object' || data === null || !('reads' in data)) return data;
  const { conversation_id, reads } = data as { conversation_id: string; reads: unknown };
  return {
    conversation_id,
    command: 'auto_reply_status',
    ...(await deps.autoReplies.statusOfKeptReads(reads)),
  } satisfies StatusAnswerData;
};
