// `@dialog-relay/replies/worker`: what only the worker runs. These modules reach the webhook client
// (packages/delivery, got), which the API and the CLI never load (docs/design/performance.md, memory).
export { createReplyJobHandlers } from './job-handlers.js';
export { startTurnSweeper } from './turn-sweeper.js';
export type { WorkerDeps } from './worker-deps.js';
