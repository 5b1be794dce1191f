export * from './constant-time.js';
export * from './request-signature.js';
export * from './webhook-signature.js';
export * from './webhook-secret.js';
