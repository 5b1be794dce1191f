import { AppError, COMMANDS } from '@dialog-relay/contracts';
import { conversationIdOf } from '@dialog-relay/conversations';
import type { AutoReplyStatus } from '../ports.js';
import { noReads, nothingToCommit, type Scenario, type ScenarioResult } from './scenario.js';

/**
 * docs/service-rules.md §8: the command is content, trimmed (validated before); the conversation is the one of
 * §5. Commands steer the conversation and are not recorded in its context: they are not chat.
 */
export const cmdDialog: Scenario = (deps, input) => {
  const conversationId = conversationIdOf(input.client.id, input.request.message_info);
  const base = { conversation_id: conversationId, command: input.command };
  const done = (data: Record<string, unknown>): ScenarioResult => ({ status: 200, conversationId, data: { ...base, ...data }, commit: nothingToCommit });
  const reads = input.command === 'auto_reply_status' ? deps.autoReplies.status(conversationId) : noReads;
  return { reads, finish: async () => {
    switch (input.command) {
      case 'stop_auto_reply': {
        const cancelled = await deps.autoReplies.stop(conversationId);
        input.logger.info('auto reply stopped', { conversation_id: conversationId, cancelled });
        return done({ auto_reply: 'stopped', cancelled });
      }
      case 'resume_auto_reply':
        await deps.autoReplies.resume(conversationId);
        return done({ auto_reply: 'active' });
      case 'auto_reply_status': {
        const status = (await reads) as AutoReplyStatus;
        return done({ ...status });
      }
      case undefined:
        throw new AppError('unknown_command', `cmd_dialog needs a command: ${COMMANDS.join(', ')}.`);
    }
  } };
};
