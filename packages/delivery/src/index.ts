export { classifyStatus, failedOutcome, type AttemptOutcome, type StatusClass } from './outcome.js';
export { parseRetryAfter } from './retry-after.js';
export { retryDelayMs } from './backoff.js';
export { buildReplyPayload, type ReplyPayloadInput } from './reply-payload.js';
export { createDeliverer, NOT_SENT, type Deliverer, type DelivererOptions, type DeliveryRequest } from './deliver.js';
