export {
  EVENT_TYPES,
  FILE_TYPES,
  type EventType,
  type FileType,
  type MessageType,
  type FromUserType,
  type FileInfo,
  type Quote,
  type MessageInfo,
  type ChatMessageRequest,
  type ReplyPartType,
  type ReplyPart,
  type ContextMessage,
} from './message.types.js';
export type { DueMessage } from './due-message.js';
export { ERROR_STATUS, ERROR_PRECEDENCE, type ErrorCode } from './error-codes.js';
export { isAppError, leadingErrorCode, AppError, type FieldError, type AppErrorOptions } from './app-error.js';
export { MAX_LISTED_ERRORS, MAX_ERROR_ANSWER_BYTES, type SuccessEnvelope, type ErrorEnvelope } from './envelope.types.js';
export { isCommand, COMMANDS, type Command } from './commands.js';
export {
  buildRequestSchema,
  DEFAULT_LIMITS,
  SIGNATURE_MAX_CHARS,
  NAME_MAX_CHARS,
  SEND_URL_MAX_CHARS,
  FILE_CONTENT_MAX_CHARS,
  UNICODE_TEXT_PATTERN,
  type ValidationLimits,
} from './message.schema.js';
export { hasText, applyRequestRules, type RuleOutcome } from './request-rules.js';
export { createRequestValidator, type ValidationResult, type RequestValidator } from './request-validator.js';
export { checkBodyShape, DEFAULT_BODY_SHAPE, type BodyShapeLimits } from './body-shape.js';
export { checkRawBodyShape } from './raw-body-shape.js';
export { buildOpenApiDocument, DOCS_ASSETS, type DocumentedTimings, type OpenApiOptions } from './openapi/openapi-document.js';
export { jsonParseFailureDetail } from './json-parse-failure.js';
export { fieldList, type FieldPresence, type FieldList } from './field-list.js';
export {
  DELIVERY_STATES,
  DEAD_LETTER_REASONS,
  DELIVERY_ATTEMPT_FIELDS,
  DELIVERY_VIEW_FIELDS,
  type DeliveryState,
  type DeadLetterReason,
  type DeliveryAttemptView,
  type DeliveryView,
} from './delivery-view.js';
export {
  AUTO_REPLY_STATES,
  PENDING_REPLY_STATES,
  PENDING_REPLIES_FIELDS,
  AUTO_REPLY_STATUS_FIELDS,
  type AutoReplyState,
  type PendingReplyState,
  type PendingReplies,
  type AutoReplyStatusView,
} from './auto-reply-status.js';
export { AUTO_DIALOG_STATUSES, type AutoDialogStatus } from './auto-dialog-status.js';
export { SIGNATURE_SCHEMES, type SignatureScheme } from './signature-schemes.js';
export {
  DELIVERY_PAYLOAD_TYPE,
  DELIVERY_MESSAGE_INFO_FIELDS,
  DELIVERY_PAYLOAD_FIELDS,
  type DeliveryMessageInfo,
  type DeliveryPayload,
} from './delivery-payload.js';
export { SYNC_REPLY_FIELDS, ASSIST_REPLY_FIELDS, type SyncReplyData, type AssistReplyData } from './sync-replies.js';
export {
  STOP_ANSWER_FIELDS,
  RESUME_ANSWER_FIELDS,
  type StopAnswerData,
  type ResumeAnswerData,
  type StatusAnswerData,
  type CommandAnswers,
  type CommandAnswerData,
} from './command-answers.js';
