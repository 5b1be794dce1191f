/** One part of a reply: text, or a file given by URL or base64. */
export interface ReplyPart {
  type: 'text' | 'image' | 'document' | 'voice';
  content: string;
}

export interface FileInfo {
  content: string;
  file_type: 'image' | 'document' | 'voice';
}

/**
 * The JSON body of a reply POSTed to send_url (docs/integrating.md "Delivery to your send_url"). message_info
 * mirrors the request format; group_id, group_name and at_list appear in groups only, content and
 * files_info only when the reply has such parts.
 */
export interface DeliveryPayload {
  type: 'auto_dialog.reply';
  delivery_id: string;
  client: string;
  conversation_id: string;
  in_reply_to: string[];
  /** True when the reply hands the conversation to a person; its auto replies then pause for HANDOFF_PAUSE_S. */
  handoff: boolean;
  /** Ids of the knowledge entries the reply rests on (possibly none). */
  sources: string[];
  message_info: {
    msg_id: string;
    group_id?: string;
    group_name?: string;
    from_user_id: string;
    to_user_id: string;
    at_list?: string[];
    content?: string;
    files_info?: FileInfo[];
    message_type: 1;
    event_type: 'auto_dialog';
    from_user_type: 4;
    create_timestamp: number;
  };
}

/** A delivery's body exactly as received: a string, a Buffer / Uint8Array / DataView, or an ArrayBuffer (fetch `request.arrayBuffer()`). */
export type RawBody = string | ArrayBuffer | ArrayBufferView;

/** Request headers as node:http gives them (lower-case names) or a fetch `Headers`. */
export type HeaderSource = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Why a delivery was refused; each reason has its own explanation in `message`. */
export type VerificationFailure = 'missing_headers' | 'invalid_timestamp' | 'stale_timestamp' | 'invalid_signature' | 'malformed_body';

export type VerificationResult =
  { ok: true; id: string; timestamp: number; payload: DeliveryPayload } | { ok: false; reason: VerificationFailure; message: string };
