export * from './config.js';
export * from './client-checks.js';
export * from './client-settings.js';
export { ConfigError, type Env } from './env-readers.js';
export * from './ingress-config.js';
export * from './redis-config.js';
export * from './drain-bounds.js';
