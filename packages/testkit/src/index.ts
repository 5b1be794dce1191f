export { freePort } from './free-port.js';
export { redisServerInstalled, startRedisServer, type RedisServerHandle } from './redis-server.js';
export { testRedisUrl, uniquePrefix, testRedisEnv, onTestCluster } from './test-redis.js';
export { waitUntil } from './wait-until.js';
export { commandCalls } from './command-stats.js';
export { monitorRedis, parseMonitorLine, type MonitorLine, type RedisMonitor } from './redis-monitor.js';
export {
  completionBody,
  startFakeChatServer,
  type RecordedRequest,
  type FakeAnswer,
  type FakeChatServer,
} from './fake-chat-completions-server.js';
export {
  startRedisCluster,
  startRedisReplicaPair,
  startRedisSentinel,
  type RedisClusterHandle,
  type RedisReplicaPairHandle,
  type RedisSentinelHandle,
} from './redis-topologies.js';
export { registerApiUnderTest, isRegisteredApi, checkAnswerAgainstOpenApi, answerBody } from './openapi-apis.js';
/**
 * `node --import MODULE_RECORDER main.js` with MODULE_LOG=<file>: the process writes every module it
 * loads to the file (module-recorder.ts). Not exported as a module: importing it starts recording.
 */
export const MODULE_RECORDER = new URL('./module-recorder.js', import.meta.url).href;
export { environmentWithout, runProcess, type ProcessRun } from './run-process.js';
export { scavengesAfterMark, promotedShare, medianPauseMs, measureFromLine, type GcLine } from './gc-trace.js';
