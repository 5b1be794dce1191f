export {
  ERROR_CODES,
  AUTO_DIALOG_STATUSES,
  DELIVERY_STATES,
  DEAD_LETTER_REASONS,
  AUTO_REPLY_STATES,
  PENDING_REPLY_STATES,
  type ErrorCode,
  type EventType,
  type Command,
  type MessageInput,
  type AutoMessageInput,
  type Participants,
  type SyncReply,
  type AssistReply,
  type AutoAccepted,
  type DeliveryAttemptView,
  type DeliveryView,
  type CommandAnswers,
  type Answer,
  type FieldProblem,
} from './api.types.js';
export { DialogRelayError } from './api-error.js';
export { createClient, type ClientOptions, type DialogRelayClient } from './client.js';
export type {
  ReplyPart,
  FileInfo,
  DeliveryPayload,
  RawBody,
  HeaderSource,
  VerificationFailure,
  VerificationResult,
} from './delivery.types.js';
export { createDeliveryReceiver, type VerifiedDelivery, type ReceiverOptions } from './delivery-receiver.js';
export { explainDelivery, type DeliveryDiagnosis } from './explain-delivery.js';
export { signingString, signRequest, withSignature, SIGNATURE_SCHEMES, type SignatureScheme, type SignOptions } from './request-signing.js';
export {
  headerValue,
  webhookDigest,
  signatureListMatches,
  isRawBody,
  rawBodyBytes,
  verificationClock,
  verifyDelivery,
  signDelivery,
  DEFAULT_TOLERANCE_S,
  type VerifyOptions,
} from './verify-delivery.js';
export { webhookKey } from './webhook-key.js';
