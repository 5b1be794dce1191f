export * from './job-catalog.js';
export * from './conversation-turns.js';
export * from './delivery-records.js';
export * from './reply-queue.js';
export * from './auto-reply-queue.js';
