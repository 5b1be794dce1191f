export { classifyStatus, failedOutcome, MAX_RESPONSE_BODY_BYTES, type AttemptOutcome, type StatusClass } from './outcome.js';
export { parseRetryAfter } from './retry-after.js';
export { retryDelayMs, type RetryDelayInput } from './backoff.js';
export { buildReplyPayload, type ReplyPayloadInput } from './reply-payload.js';
export { describeAttemptError, type ErrorVerdict } from './attempt-error.js';
export { createDeliverer, NOT_SENT, type Deliverer, type DelivererOptions, type DeliveryRequest } from './deliver.js';
