/**
 * Every stable machine code of the API (docs/service-rules.md §1–§3, §9) with the HTTP status it travels with.
 * The order is the precedence used when one request breaks several rules: the first code found
 * in this order becomes the envelope's `error`, and `errors` lists them all.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  request_timeout: 408,
  headers_too_large: 431,
  unsupported_media_type: 415,
  payload_too_large: 413,
  malformed_json: 400,
  invalid_request: 400,
  content_or_files_required: 400,
  quote_required: 400,
  sender_or_group_required: 400,
  from_user_type_required: 400,
  msg_id_required: 400,
  at_list_not_allowed: 400,
  mixed_content_types: 400,
  send_url_not_supported: 400,
  send_url_required: 400,
  send_url_forbidden: 400,
  unknown_command: 400,
  invalid_signature: 401,
  timestamp_out_of_range: 401,
  unauthorized: 401,
  forbidden: 403,
  command_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  replayed_request: 409,
  request_in_progress: 409,
  rate_limited: 429,
  pending_limit: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Codes of field-level rule violations, in precedence order (see ERROR_STATUS). */
export const ERROR_PRECEDENCE = Object.keys(ERROR_STATUS) as ErrorCode[];
