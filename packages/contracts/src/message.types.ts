/** The request body of POST /custom-im/chat-messages, after schema validation (field names as in docs/service-rules.md and the OpenAPI document). */
export const EVENT_TYPES = ['auto_dialog', 'assist_dialog', 'website_dialog', 'cmd_dialog'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const FILE_TYPES = ['image', 'document', 'voice'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** 1 normal message, 2 quoted message. */
export type MessageType = 1 | 2;
/** 1 account bound to the bot, 2 customer, 3 customer-service staff, 4 the bot's own message. */
export type FromUserType = 1 | 2 | 3 | 4;

export interface FileInfo {
  content: string;
  file_type: FileType;
}

export interface Quote {
  msg_id: string;
  message_type: MessageType;
  [extra: string]: unknown;
}

export interface MessageInfo {
  msg_id?: string;
  group_id?: string;
  group_name?: string;
  from_user_id?: string;
  from_user_nickname?: string;
  to_user_id?: string;
  to_user_nickname?: string;
  at_list?: string[];
  content?: string;
  message_type: MessageType;
  event_type: EventType;
  from_user_type?: FromUserType;
  create_timestamp: number;
  files_info?: FileInfo[];
  quote?: Quote;
  send_url?: string;
}

export interface ChatMessageRequest {
  client: string;
  signature: string;
  timestamp: number;
  message_info: MessageInfo;
  send_url?: string;
}

/** One part of a reply (docs/service-rules.md §3): text, or a file given by URL or base64. */
export type ReplyPartType = 'text' | FileType;
export interface ReplyPart {
  type: ReplyPartType;
  content: string;
}

/** A message as kept in a conversation's context (docs/service-rules.md §5). */
export interface ContextMessage {
  msg_id: string;
  /** 'customer' for types 2 (and senders of assist/website dialogs), 'agent' for 1 and 3, 'bot' for 4 and the service's replies. */
  role: 'customer' | 'agent' | 'bot';
  from_user_id: string;
  content: ReplyPart[];
  event_type: EventType;
  /** Unix seconds, as sent by the caller (create_timestamp) or the server time for the service's replies. */
  create_timestamp: number;
}
