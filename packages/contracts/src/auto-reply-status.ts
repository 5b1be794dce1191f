import type { DeliveryView } from './delivery-view.js';
import { fieldList } from './field-list.js';

/** Whether a conversation gets automatic replies (stop_auto_reply / resume_auto_reply). */
export const AUTO_REPLY_STATES = ['active', 'stopped'] as const;
export type AutoReplyState = (typeof AUTO_REPLY_STATES)[number];

/** A pending reply is being produced (its turn has taken the messages) or waits for its turn. */
export const PENDING_REPLY_STATES = ['producing', 'waiting'] as const;
export type PendingReplyState = (typeof PENDING_REPLY_STATES)[number];

/** Messages whose reply is not produced yet. */
export interface PendingReplies {
  msg_ids: string[];
  state: PendingReplyState;
}

export const PENDING_REPLIES_FIELDS = fieldList<PendingReplies>({ msg_ids: true, state: true });

/**
 * What auto_reply_status shows of a conversation (docs/service-rules.md §8, §14): the answer's data
 * beside conversation_id and command.
 */
export interface AutoReplyStatusView {
  auto_reply: AutoReplyState;
  /** ISO time until which a human's message or a handoff pauses auto replies, or null. */
  paused_until: string | null;
  pending: PendingReplies[];
  /** The latest deliveries with their attempts. */
  deliveries: DeliveryView[];
}

export const AUTO_REPLY_STATUS_FIELDS = fieldList<AutoReplyStatusView>({
  auto_reply: true,
  paused_until: true,
  pending: true,
  deliveries: true,
});
