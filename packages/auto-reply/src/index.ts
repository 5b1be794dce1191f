export * from './worker-deps.js';
export * from './attempt-delivery.js';
export * from './produce-reply.js';
export * from './process-turn.js';
export * from './dead-letters.js';
