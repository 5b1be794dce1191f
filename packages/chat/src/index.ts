export { createChatService, type ChatService } from './chat-service.js';
export type { AuthAttempt, AuthThrottle } from './auth-throttle.js';
