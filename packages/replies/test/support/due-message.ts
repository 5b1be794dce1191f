import type { ReplyPart } from '@dialog-relay/contracts';
import type { DueMessage } from '../internals.js';

/** A customer message due for a reply, as the ingress hands it to the turn store (the store tests' shape). */
export const dueMessage = (
  msgId: string,
  conversationId = 'c_one',
  content: ReplyPart[] = [{ type: 'text', content: `question ${msgId}` }],
): DueMessage => ({
  message: {
    msg_id: msgId,
    role: 'customer',
    from_user_id: 'cust',
    content,
    event_type: 'auto_dialog',
    create_timestamp: Math.floor(Date.now() / 1000),
  },
  client: 'shop',
  conversationId,
  sendUrl: 'http://127.0.0.1:9/x',
  groupId: undefined,
  groupName: undefined,
  boundAccountId: 'bound',
  receivedAtMs: Date.now(),
});
