export { loadConfig, type EmbeddingsConfig, type OpenAiEngineConfig, type ReplyEngineConfig, type Config } from './config.js';
export { assertUsableClient, type ClientCheckOptions } from './client-checks.js';
export { parseClientRecord, toClientRecord, type ClientSettings } from './client-settings.js';
export { ConfigError, type Env } from './env-readers.js';
export type { IngressConfig } from './ingress-config.js';
export { readRedisConfig, describeRedisTarget, type RedisConfig } from './redis-config.js';
export { apiDrainBoundMs, workerDrainBoundMs } from './drain-bounds.js';
export { SECRET_FILE_VARIABLES } from './secret-files.js';
export { SERVICE_VERSION } from './service-version.js';
