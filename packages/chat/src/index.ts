export { createChatService, type ChatService } from './chat-service.js';
export type { AuthAttempt, AuthThrottle, SourceAddress } from './auth-throttle.js';
