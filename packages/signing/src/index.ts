export { constantTimeEqual, constantTimeEqualsAny } from './constant-time.js';
export {
  hmacSigningString,
  signHmacSha256,
  md5SigningString,
  signMd5,
  signRequestBody,
  verifyRequestSignature,
  SECRET_PLACEHOLDER,
  type SignatureScheme,
} from './request-signature.js';
export {
  webhookSigningKey,
  webhookHmacKey,
  signWebhook,
  webhookHeaders,
  verifyWebhookSignature,
  type WebhookKey,
} from './webhook-signature.js';
export type { HmacSha256Key } from './hmac-sha256.js';
export { webhookSecretProblem, MIN_WEBHOOK_KEY_BYTES } from './webhook-secret.js';
