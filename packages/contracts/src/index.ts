export * from './message.types.js';
export * from './error-codes.js';
export * from './app-error.js';
export * from './envelope.types.js';
export * from './commands.js';
export * from './message.schema.js';
export * from './request-rules.js';
export * from './request-validator.js';
