export * from './constant-time.js';
export * from './request-signature.js';
export * from './webhook-signature.js';
