export * from './free-port.js';
export * from './redis-server.js';
export * from './test-redis.js';
export * from './wait-until.js';
