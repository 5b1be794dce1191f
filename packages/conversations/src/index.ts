export * from './conversation-key.js';
export * from './context-message.js';
export * from './context.store.js';
export * from './message-index.store.js';
export { CONTEXT_SCRIPTS } from './context.scripts.js';
