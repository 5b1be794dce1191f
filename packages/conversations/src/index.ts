export * from './conversation-key.js';
export * from './context-message.js';
export * from './context.store.js';
export * from './message-index.store.js';
export { appendContextLua, CONTEXT_SCRIPTS, readContextLua } from './context.scripts.js';
