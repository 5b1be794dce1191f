import type { FileInfo, ReplyPart } from './delivery.types.js';

/** Every stable `error` code of the API (docs/integrating.md "The API"). */
export const ERROR_CODES = [
  'bad_request',
  'request_timeout',
  'headers_too_large',
  'unsupported_media_type',
  'payload_too_large',
  'malformed_json',
  'invalid_request',
  'content_or_files_required',
  'quote_required',
  'sender_or_group_required',
  'from_user_type_required',
  'msg_id_required',
  'at_list_not_allowed',
  'mixed_content_types',
  'send_url_not_supported',
  'send_url_required',
  'send_url_forbidden',
  'unknown_command',
  'invalid_signature',
  'timestamp_out_of_range',
  'unauthorized',
  'forbidden',
  'command_not_allowed',
  'not_found',
  'method_not_allowed',
  'replayed_request',
  'request_in_progress',
  'rate_limited',
  'pending_limit',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type EventType = 'assist_dialog' | 'website_dialog' | 'auto_dialog' | 'cmd_dialog';
export type Command = 'stop_auto_reply' | 'resume_auto_reply' | 'auto_reply_status';

/** A message as the client methods take it; event_type, message_type and create_timestamp are filled in. */
export interface MessageInput {
  msg_id?: string;
  group_id?: string;
  group_name?: string;
  from_user_id?: string;
  from_user_nickname?: string;
  to_user_id?: string;
  to_user_nickname?: string;
  content?: string;
  files_info?: FileInfo[];
  /** 1 plain (default), 2 quoting `quote`. */
  message_type?: 1 | 2;
  quote?: { msg_id: string; message_type: 1 | 2 };
  create_timestamp?: number;
}

export interface AutoMessageInput extends MessageInput {
  /** 1 bound account (a person), 2 customer (gets replies), 3 staff, 4 the bot itself. */
  from_user_type: 1 | 2 | 3 | 4;
  at_list?: string[];
}

/** Who a command is about: the conversation of these participants (or this group). */
export interface Participants {
  from_user_id?: string;
  to_user_id?: string;
  group_id?: string;
}

export interface SyncReply {
  conversation_id: string;
  /** The reply's id. */
  msg_id: string;
  in_reply_to: string[];
  content: ReplyPart[];
  /** True when the reply hands the conversation to a person (the fallback text: nothing in the knowledge answers, or the engine failed). */
  handoff: boolean;
  /** Ids of the knowledge entries the reply rests on (possibly none). */
  sources: string[];
}

export interface AssistReply extends SyncReply {
  /** True when the msg_id was seen earlier in auto_dialog and that conversation was used. */
  context_reused: boolean;
}

/*
 * Copies of wire shapes the service defines in its contracts package: the SDK is published on its own
 * and imports nothing of the service. test/contracts-copies.test.ts fails when a copy differs.
 */
export const AUTO_DIALOG_STATUSES = ['queued', 'recorded', 'suppressed'] as const;
export const DELIVERY_STATES = ['pending', 'retrying', 'delivered', 'dead', 'cancelled'] as const;
export const DEAD_LETTER_REASONS = ['permanent_status', 'attempts_exhausted', 'stale', 'unknown_client', 'failed'] as const;
export const AUTO_REPLY_STATES = ['active', 'stopped'] as const;
export const PENDING_REPLY_STATES = ['producing', 'waiting'] as const;

export interface AutoAccepted {
  conversation_id: string;
  msg_id: string;
  /** queued: a reply will be POSTed to send_url; recorded: none is due; suppressed: auto reply is stopped or paused. */
  status: (typeof AUTO_DIALOG_STATUSES)[number];
}

export interface DeliveryAttemptView {
  attempt: number;
  at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
}

export interface DeliveryView {
  delivery_id: string;
  state: (typeof DELIVERY_STATES)[number];
  in_reply_to: string[];
  dead_reason?: (typeof DEAD_LETTER_REASONS)[number];
  attempts: DeliveryAttemptView[];
}

export interface CommandAnswers {
  stop_auto_reply: { conversation_id: string; command: 'stop_auto_reply'; auto_reply: 'stopped'; cancelled: number };
  resume_auto_reply: { conversation_id: string; command: 'resume_auto_reply'; auto_reply: 'active' };
  auto_reply_status: {
    conversation_id: string;
    command: 'auto_reply_status';
    auto_reply: (typeof AUTO_REPLY_STATES)[number];
    paused_until: string | null;
    pending: { msg_ids: string[]; state: (typeof PENDING_REPLY_STATES)[number] }[];
    deliveries: DeliveryView[];
  };
}

/** One successful answer: the envelope's data plus what the headers say. */
export interface Answer<T> {
  status: number;
  requestId: string;
  /** True when this is the stored first answer to a msg_id sent again (Idempotent-Replayed). */
  idempotentReplayed: boolean;
  data: T;
}

export interface FieldProblem {
  path: string;
  code: string;
  message: string;
}
