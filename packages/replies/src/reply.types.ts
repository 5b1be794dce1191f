import {
  DEAD_LETTER_REASONS,
  type AutoReplyStatusView,
  type ContextMessage,
  type DeadLetterReason,
  type DeliveryAttemptView,
  type DeliveryState,
  type DeliveryView,
  type DueMessage,
} from '@dialog-relay/contracts';

/**
 * The data of the reply protocol (docs/design/reply-protocol.md), declared here because this package
 * stores it: due messages, the batch a turn answers, delivery records and dead letters.
 */

/** The due message is a stored shape shared with the ingress: packages/contracts defines it (due-message.ts). */
export type { DueMessage };

/**
 * A due message as the turn store hands it back: one whose JSON would exceed DUE_MESSAGE_MAX_CHARS
 * (large inline files) is stored without the message's content, and answered from the context.
 */
export type StoredDueMessage = Omit<DueMessage, 'message'> & {
  message: Omit<ContextMessage, 'content'> & Partial<Pick<ContextMessage, 'content'>>;
};

/** What one turn answers: its messages and the delivery id chosen when they were taken. */
export interface TurnBatch {
  deliveryId: string;
  generation: number;
  /** The generation of the job serving the batch: `generation`, or an earlier job's that went on to this turn. */
  carrier: number;
  messages: StoredDueMessage[];
}

/** Delivery states and dead-letter reasons are wire shapes: packages/contracts defines them (delivery-view.ts). */
export type { DeliveryState, DeliveryView };
export const DEAD_REASONS = DEAD_LETTER_REASONS;
export type DeadReason = DeadLetterReason;

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

/** Delivery ids kept per conversation (auto_reply_status shows the latest); SETTLE has it in its text. */
export const KEEP_PER_CONVERSATION = 20;

/**
 * Every field of a record, in the order SETTLE takes a produced record's values (attempt.lua.ts
 * names the fields in its own text, so a call carries the values only); handoff last.
 */
export const RECORD_FIELDS = [
  'delivery_id',
  'conversation_id',
  'client',
  'send_url',
  'in_reply_to',
  'state',
  'payload',
  'reply_content',
  'generation',
  'created_at_ms',
  'deadline_ms',
  'dead_reason',
  'dead_detail',
  'attempt_base',
  'handoff',
] as const satisfies readonly (keyof DeliveryRecord)[];
/** A field of DeliveryRecord missing from RECORD_FIELDS fails to compile here. */
export const RECORD_FIELDS_COMPLETE: [Exclude<keyof DeliveryRecord, (typeof RECORD_FIELDS)[number]>] extends [never] ? true : never = true;

/** An attempt as stored: what auto_reply_status shows of it, and the receiver's answer. */
export interface DeliveryAttempt extends DeliveryAttemptView {
  /** The receiver's answer, cut to 4 KiB. */
  response_body: string | null;
}

/** auto_reply_status (docs/service-rules.md §8, §14): the view packages/contracts defines. */
export type ReplyStatus = AutoReplyStatusView;
