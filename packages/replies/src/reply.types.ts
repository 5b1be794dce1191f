import type { ContextMessage } from '@dialog-relay/contracts';

/**
 * The data of the reply protocol (docs/design/reply-protocol.md), declared here because this package
 * stores it: due messages, the batch a turn answers, delivery records and dead letters.
 */

/**
 * A customer message that is due an automatic reply (docs/service-rules.md §6), as the ingress hands
 * it over: the context message itself, the very object recorded in the conversation's context (its
 * msg_id, sender, content and create_timestamp; docs/design/reply-protocol.md "What a due message
 * holds"), so the reply is produced from it even when the capped context no longer holds it, plus
 * only what the turn needs beside it: where the reply goes and from whom, and when it came.
 */
export interface DueMessage {
  message: ContextMessage;
  client: string;
  conversationId: string;
  sendUrl: string;
  groupId: string | undefined;
  groupName: string | undefined;
  boundAccountId: string;
  receivedAtMs: number;
}

/**
 * A due message as the turn store hands it back: one whose JSON would exceed DUE_MESSAGE_MAX_CHARS
 * (large inline files) is stored without the message's content, and answered from the context.
 */
export type StoredDueMessage = Omit<DueMessage, 'message'> & { message: Omit<ContextMessage, 'content'> & Partial<Pick<ContextMessage, 'content'>> };

/** What one turn answers: its messages and the delivery id chosen when they were taken. */
export interface TurnBatch {
  deliveryId: string;
  generation: number;
  messages: StoredDueMessage[];
}

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'dead' | 'cancelled';

/** Why a reply became a dead letter (docs/service-rules.md §7, §15). */
export const DEAD_REASONS = ['permanent_status', 'attempts_exhausted', 'stale', 'unknown_client', 'failed'] as const;
export type DeadReason = (typeof DEAD_REASONS)[number];

/** One reply to deliver, kept from its production until long after it is done (docs/service-rules.md §7). */
export interface DeliveryRecord {
  /** Globally unique and time-ordered (`dlv_<32 hex>_s<shard>`, see delivery-id.ts): the webhook-id receivers deduplicate on. */
  delivery_id: string;
  conversation_id: string;
  client: string;
  send_url: string;
  in_reply_to: string[];
  state: DeliveryState;
  /** The exact JSON body POSTed on every attempt ('' when the reply could not be produced). */
  payload: string;
  /** JSON ReplyPart[]: recorded in the conversation's context once delivered. */
  reply_content: string;
  /** The generation of the conversation turn that produced it. */
  generation: number;
  created_at_ms: number;
  deadline_ms: number;
  dead_reason: DeadReason | '';
  /** Human words for the dead reason (the error of a failed job, the missing client ...). */
  dead_detail: string;
  /** Attempts made before the operator's last replay: the attempt limit counts from here. */
  attempt_base: number;
  /** The reply hands the conversation to a person: its turn ends with HANDOFF_PAUSE_S (docs/service-rules.md §17). */
  handoff?: true;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
  /** The receiver's answer, cut to 4 KiB. */
  response_body: string | null;
}

/** A delivery as auto_reply_status shows it. */
export interface DeliveryView {
  delivery_id: string;
  state: DeliveryState;
  in_reply_to: string[];
  dead_reason?: DeadReason;
  attempts: Omit<DeliveryAttempt, 'response_body'>[];
}

/** auto_reply_status (docs/service-rules.md §8, §14). */
export interface ReplyStatus {
  auto_reply: 'active' | 'stopped';
  paused_until: string | null;
  pending: { msg_ids: string[]; state: 'producing' | 'waiting' }[];
  deliveries: DeliveryView[];
}
