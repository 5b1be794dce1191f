export { conversationIdOf } from './conversation-key.js';
export { contextMessageFrom, parseContextMessages } from './context-message.js';
export { createContextStore, type ContextStore } from './context.store.js';
export { createMessageIndex, type MessageIndex } from './message-index.store.js';
export { appendContextLua, CONTEXT_SCRIPTS, readContextLua, readHistoryLua } from './context.scripts.js';
