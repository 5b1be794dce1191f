export * from './chat-service.js';
export * from './ports.js';
export * from './reply-policy.js';
export { authenticate } from './authenticate.js';
export { resolveSendUrl, type SendUrlChecker } from './send-url.js';
export type { AuthAttempt, AuthThrottle } from './auth-throttle.js';
export { enforceMd5Reach } from './md5-reach.js';
