import type { ContextMessage } from './message.types.js';

/**
 * A customer message that is due an automatic reply (docs/service-rules.md §6), as the ingress hands
 * it over and the reply protocol stores it (docs/design/reply-protocol.md "What a due message holds"):
 * the context message itself, the very object recorded in the conversation's context (its msg_id,
 * sender, content and create_timestamp), so the reply is produced from it even when the capped context
 * no longer holds it, plus only what the turn needs beside it: where the reply goes and from whom, and
 * when it came. The chat package hands it over, the replies package stores it: one shape for both.
 */
export interface DueMessage {
  message: ContextMessage;
  client: string;
  conversationId: string;
  sendUrl: string;
  /** Where the reply goes and who it is from: the bound account answers the customer (message.from_user_id). */
  groupId: string | undefined;
  groupName: string | undefined;
  boundAccountId: string;
  receivedAtMs: number;
}
