import type { SchemaObject } from 'ajv';
import { EVENT_TYPES, FILE_TYPES } from './message.types.js';

/** Size limits of a request (docs/service-rules.md §3 "Limits"); lengths are counted in Unicode code points. */
export interface ValidationLimits {
  contentMaxChars: number;
  filesMax: number;
  atListMax: number;
  /** For ids such as client, msg_id, group_id, from_user_id, to_user_id and at_list entries. */
  idMaxChars: number;
}

export const DEFAULT_LIMITS: ValidationLimits = Object.freeze({
  contentMaxChars: 10_000,
  filesMax: 10,
  atListMax: 100,
  idMaxChars: 256,
});

export const SIGNATURE_MAX_CHARS = 512;
export const NAME_MAX_CHARS = 256;
export const SEND_URL_MAX_CHARS = 2048;
/** One file's `content` (URL or base64); the 5 MiB body limit usually bites first. */
export const FILE_CONTENT_MAX_CHARS = 7 * 1024 * 1024;
/**
 * Text without a lone surrogate (JSON's "\ud800" escape can write one; AJV reads patterns with the
 * `u` flag, where a surrogate pair is one code point outside this class). Ids must match it: they
 * become Redis key parts (URI-encoded, which throws on a lone surrogate) and conversation ids
 * (UTF-8 hashed, which would make "\ud800" and "\ufffd" one conversation). hmac-sha256 cannot sign
 * such text at all (RFC 8785), so only md5 clients could send it (docs/service-rules.md §2).
 */
export const UNICODE_TEXT_PATTERN = '^[^\\uD800-\\uDFFF]*$';

/**
 * The JSON schema of the request body: types, enums and limits only (docs/service-rules.md §3
 * `invalid_request`). The cross-field rules (the other 400 codes of §3's table) live in
 * request-rules.ts. Unknown members are tolerated at every level (no additionalProperties: false):
 * existing clients send extra members. from_user_id is not required here: §3
 * `sender_or_group_required` allows it to be "" or absent when group_id is non-empty.
 */
export function buildRequestSchema(limits: ValidationLimits): SchemaObject {
  const id = { type: 'string', maxLength: limits.idMaxChars, pattern: UNICODE_TEXT_PATTERN };
  const name = { type: 'string', maxLength: NAME_MAX_CHARS };
  const sendUrl = { type: 'string', maxLength: SEND_URL_MAX_CHARS };
  const messageType = { type: 'integer', enum: [1, 2] };
  const timestamp = { type: 'integer', minimum: 0 };

  const file = {
    type: 'object',
    required: ['content', 'file_type'],
    properties: {
      content: { type: 'string', minLength: 1, maxLength: FILE_CONTENT_MAX_CHARS },
      file_type: { type: 'string', enum: [...FILE_TYPES] },
    },
  };

  const quote = {
    type: 'object',
    properties: { msg_id: id, message_type: messageType },
  };

  const messageInfo = {
    type: 'object',
    required: ['message_type', 'event_type', 'create_timestamp'],
    properties: {
      msg_id: id,
      group_id: id,
      group_name: name,
      from_user_id: id,
      from_user_nickname: name,
      to_user_id: id,
      to_user_nickname: name,
      at_list: { type: 'array', maxItems: limits.atListMax, items: id },
      content: { type: 'string', maxLength: limits.contentMaxChars },
      message_type: messageType,
      event_type: { type: 'string', enum: [...EVENT_TYPES] },
      from_user_type: { type: 'integer', enum: [1, 2, 3, 4] },
      create_timestamp: timestamp,
      files_info: { type: 'array', maxItems: limits.filesMax, items: file },
      quote,
      send_url: sendUrl,
    },
  };

  return {
    type: 'object',
    required: ['client', 'signature', 'timestamp', 'message_info'],
    properties: {
      client: { type: 'string', minLength: 1, maxLength: limits.idMaxChars, pattern: UNICODE_TEXT_PATTERN },
      signature: { type: 'string', minLength: 1, maxLength: SIGNATURE_MAX_CHARS },
      timestamp,
      message_info: messageInfo,
      send_url: sendUrl,
    },
  };
}
