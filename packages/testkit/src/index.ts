export * from './free-port.js';
export * from './redis-server.js';
export * from './test-redis.js';
export * from './wait-until.js';
export * from './redis-topologies.js';
export * from './openapi-answers.js';
export * from './openapi-apis.js';
