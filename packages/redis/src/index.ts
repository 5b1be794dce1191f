export * from './redis-keys.js';
export * from './redis-connection.js';
export * from './redis-errors.js';
export * from './lua-script.js';
export type { Redis } from 'ioredis';
