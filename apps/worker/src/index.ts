export { buildWorker, USER_AGENT, type WorkerRuntime } from './build-worker.js';
