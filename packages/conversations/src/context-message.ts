import type { ContextMessage, FromUserType, MessageInfo, ReplyPart } from '@dialog-relay/contracts';

function roleOf(fromUserType: FromUserType | undefined): ContextMessage['role'] {
  switch (fromUserType) {
    case undefined:
    case 2:
      return 'customer';
    case 1:
    case 3:
      return 'agent';
    case 4:
      return 'bot';
  }
}

/**
 * The context form of an incoming message. Role: from_user_type 2 (or absent, as in assist and
 * website dialogs) is the customer, 1 and 3 are agents, 4 is the bot. Content: the text when it
 * holds more than white space (no reader uses a blank text: the engines trim it away, and a stored
 * text part is how a context read tells a message with text, readHistoryLua), then each file in order.
 */
export function contextMessageFrom(info: MessageInfo, msgId: string): ContextMessage {
  const content: ReplyPart[] = [];
  if (info.content !== undefined && info.content.trim() !== '') content.push({ type: 'text', content: info.content });
  for (const file of info.files_info ?? []) content.push({ type: file.file_type, content: file.content });
  return {
    msg_id: msgId,
    role: roleOf(info.from_user_type),
    from_user_id: info.from_user_id ?? '',
    content,
    event_type: info.event_type,
    create_timestamp: info.create_timestamp,
  };
}

/**
 * Context messages as a context script returns them (their stored JSON, oldest first), parsed:
 * the worker's TAKE, SETTLE and OPEN_ATTEMPT and the context store's reads. Trusted: only the
 * context's writer stores them.
 */
export const parseContextMessages = (jsons: readonly string[] | undefined): ContextMessage[] =>
  (jsons ?? []).map((json) => JSON.parse(json) as ContextMessage);
