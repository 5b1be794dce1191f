// What the API, the worker and the CLI share: the reply services, wired once, and the shapes they answer
// with. The worker's own modules (job handlers, the attempt and its delivery) are in './worker.js'
// (`@dialog-relay/replies/worker`), so a process that does not deliver never loads the HTTP client.
export {
  createReplyServices,
  type ReplyConnections,
  type ReplyServices,
  type ReplyServicesConfig,
  type ReplyServicesOptions,
} from './reply-services.js';
export type { DueMessage, DeliveryRecord, DeliveryAttempt } from './reply.types.js';
// The stores one by one, for the tests and tools that need one of them (the processes use the services).
export { createTurnStore, turnTimingsOf, type ContextReach, type TurnStore } from './turn.store.js';
export { createDeliveryStore, type DeliveryStore } from './delivery.store.js';
export { createAttemptStore } from './attempt.store.js';
export { createAutoReplies, type AutoReplies } from './auto-replies.js';
export { newDeliveryId } from './delivery-id.js';
export { listDeadLetters, replayDeadLetter, type ReplayDeps } from './dead-letters.js';
export { REPLY_SCRIPTS } from './lua-scripts.js';
export { settleScript, type SettleSettings, type TakeSettings } from './attempt.lua.js';
export { SWEEP_SCRIPTS, takeScript } from './turns.lua.js';
export type { ReplyMetrics, AutoReplyMetrics } from './reply-metrics.js';
