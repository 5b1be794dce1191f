export { createRedisKeys, type RedisKeys } from './redis-keys.js';
export { shardTags, checkShardCount, CLUSTER_SLOTS, slotOf, ShardCountMismatchError } from './shard-layout.js';
export { createRedis, createRequestRedis, subscriberOpener, waitForRedis, type Redis, type ConnectionRole } from './redis-connection.js';
export { isRedisUnavailableError } from './redis-errors.js';
export { installLeanCommandPromise, leanCommandPromiseInstalled } from './command-promise.js';
export { installLeanCommandWritable, leanCommandWritableInstalled } from './command-writable.js';
export { installLeanScriptCommand, leanScriptCommandInstalled } from './script-command.js';
export { defineLuaScript, luaText, runScript, scriptConventionProblems, type LuaScript } from './lua-script.js';
export { keptPerKey } from './kept-per-key.js';
export {
  defineLuaPart,
  withSettings,
  stepCall,
  composedScripts,
  runSteps,
  runsStepsAsOneScript,
  type StepCall,
  type Step,
  type LuaPart,
} from './lua-steps.js';
export { watchSubscription } from './watched-subscription.js';
export { createReplicaConfirmation, ReplicationLagError, MasterChangedError, type ReplicaConfirmation } from './replica-confirmation.js';
export { planKeyMove, type KeySource, type KeyMove } from './shard-migration.js';
