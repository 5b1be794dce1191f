export * from './message.types.js';
export * from './error-codes.js';
export * from './app-error.js';
export * from './envelope.types.js';
