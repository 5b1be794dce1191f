export * from './free-port.js';
export * from './redis-server.js';
export * from './test-redis.js';
export * from './wait-until.js';
export * from './fake-chat-completions-server.js';
export * from './redis-topologies.js';
export * from './openapi-answers.js';
export * from './openapi-apis.js';
/**
 * `node --import MODULE_RECORDER main.js` with MODULE_LOG=<file>: the process writes every module it
 * loads to the file (module-recorder.ts). Not exported as a module: importing it starts recording.
 */
export const MODULE_RECORDER = new URL('./module-recorder.js', import.meta.url).href;
