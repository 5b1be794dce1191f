import type { AutoReplies } from '@dialog-relay/replies';
import { output, UsageError, type Output } from '../output.js';

const USAGE = 'usage: conversation status|stop|resume <conversation_id>';

/**
 * `conversation status|stop|resume <conversation_id>`: the operator's side of cmd_dialog, through the
 * same reply protocol (stop removes waiting replies and aborts an attempt in flight).
 */
export async function conversationCommand(
  replies: Pick<AutoReplies, 'status' | 'stop' | 'resume'>,
  args: readonly string[],
): Promise<Output> {
  const [action, id] = args;
  if (!id) throw new UsageError(USAGE);
  switch (action) {
    case 'status': {
      const status = await replies.status(id);
      const lines = [
        `${id}\tauto_reply=${status.auto_reply}${status.paused_until ? `\tpaused_until=${status.paused_until}` : ''}`,
        ...status.pending.map((p) => `  pending (${p.state}): ${p.msg_ids.join(', ')}`),
        ...status.deliveries.map(
          (d) =>
            `  ${d.delivery_id}\t${d.state}${d.dead_reason ? ` (${d.dead_reason})` : ''}\tattempts=${d.attempts.length}\tin_reply_to=${d.in_reply_to.join(',')}`,
        ),
      ];
      return output(lines.join('\n'), { conversation_id: id, ...status });
    }
    case 'stop': {
      const cancelled = await replies.stop(id);
      return output(`stopped ${id} (cancelled ${cancelled} pending)`, { conversation_id: id, auto_reply: 'stopped', cancelled });
    }
    case 'resume':
      await replies.resume(id);
      return output(`resumed ${id}`, { conversation_id: id, auto_reply: 'active' });
    case undefined:
    default:
      throw new UsageError(USAGE);
  }
}
