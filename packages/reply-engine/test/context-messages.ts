import type { ContextMessage, FileType, ReplyPart } from '@dialog-relay/contracts';
import type { ReplyRequest } from './internals.js';

let counter = 0;

export function messageOf(role: ContextMessage['role'], content: ReplyPart[]): ContextMessage {
  counter += 1;
  return {
    msg_id: `m${counter}`,
    role,
    from_user_id: role === 'customer' ? 'customer-1' : 'staff-1',
    content,
    event_type: 'auto_dialog',
    create_timestamp: 1_700_000_000 + counter,
  };
}

export function textMessage(role: ContextMessage['role'], text: string): ContextMessage {
  return messageOf(role, [{ type: 'text', content: text }]);
}

export function fileMessage(role: ContextMessage['role'], type: FileType, content: string): ContextMessage {
  return messageOf(role, [{ type, content }]);
}

export function requestOf(message: ContextMessage, context: ContextMessage[] = []): ReplyRequest {
  return { conversationId: 'conv-1', message, context };
}
