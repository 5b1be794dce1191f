import type { ContextMessage } from '@dialog-relay/contracts';
import type { StoredDueMessage } from './reply.types.js';

/** What the engine is asked: the message a turn answers and the conversation before it. */
export interface ReplyInput {
  message: ContextMessage;
  history: ContextMessage[];
}

/**
 * The engine's input for the newest message of a batch (docs/design/reply-protocol.md "Produce"). The
 * message is the context message the due message carries; one stored without its content (too large)
 * is looked up in the context (a stand-in without content when the context lost it).
 *
 * History: the context before the message, plus the bot's replies recorded after it (a reply to an
 * earlier turn can land after a later message); later messages of others belong to later turns.
 * When the capped context no longer holds the message (docs/service-rules.md §5: more messages came
 * since), "before" is by create_timestamp: only messages strictly older than it (a message of the
 * same second may be newer, so it is left out), and again the bot's replies.
 */
export function replyInput(due: StoredDueMessage, context: readonly ContextMessage[]): ReplyInput {
  const carried = due.message;
  const at = context.findIndex((m) => m.msg_id === carried.msg_id);
  const message = carried.content ? (carried as ContextMessage) : (context[at] ?? { ...carried, content: [] });
  const history =
    at >= 0
      ? context.filter((m, i) => i < at || (i > at && m.role === 'bot'))
      : context.filter((m) => m.create_timestamp < message.create_timestamp || m.role === 'bot');
  return { message, history };
}
