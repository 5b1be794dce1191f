import { AppError, COMMANDS } from '@dialog-relay/contracts';
import { conversationIdOf } from '@dialog-relay/conversations';
import { nothingToCommit, type ScenarioDeps, type ScenarioInput, type ScenarioResult } from './scenario.js';

/**
 * CONTRACT §8: the command is content, trimmed (validated before); the conversation is the one of
 * §5. Commands steer the conversation and are not recorded in its context: they are not chat.
 */
export async function cmdDialog(deps: ScenarioDeps, input: ScenarioInput): Promise<ScenarioResult> {
  const conversationId = conversationIdOf(input.client.id, input.request.message_info);
  const base = { conversation_id: conversationId, command: input.command };
  const done = (data: Record<string, unknown>): ScenarioResult => ({ status: 200, conversationId, data: { ...base, ...data }, commit: nothingToCommit });
  switch (input.command) {
    case 'stop_auto_reply': {
      const cancelled = await deps.queue.stop(conversationId);
      input.logger.info('auto reply stopped', { conversation_id: conversationId, cancelled });
      return done({ auto_reply: 'stopped', cancelled });
    }
    case 'resume_auto_reply':
      await deps.queue.resume(conversationId);
      return done({ auto_reply: 'active' });
    case 'auto_reply_status': {
      const [stopped, status] = await Promise.all([deps.queue.isStopped(conversationId), deps.queue.status(conversationId)]);
      return done({ auto_reply: stopped ? 'stopped' : 'active', pending: status.pending, deliveries: status.deliveries });
    }
    case undefined:
      throw new AppError('unknown_command', `cmd_dialog needs a command: ${COMMANDS.join(', ')}.`);
  }
}
