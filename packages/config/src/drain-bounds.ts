import type { Config } from './config.js';

/**
 * The longest an API process takes from SIGTERM to its exit: SHUTDOWN_DELAY_MS still serving (readyz
 * 503), then SHUTDOWN_TIMEOUT_MS for requests in flight, after which the connections left are closed.
 * An orchestrator's grace period (Kubernetes terminationGracePeriodSeconds) must exceed it.
 */
export const apiDrainBoundMs = (config: Pick<Config, 'shutdownDelayMs' | 'shutdownTimeoutMs'>): number =>
  config.shutdownDelayMs + config.shutdownTimeoutMs;

/**
 * The longest a worker takes from SIGTERM to its exit: SHUTDOWN_TIMEOUT_MS for jobs in flight plus one
 * whole delivery attempt (DELIVERY_TIMEOUT_MS); then it exits 1 and another replica takes its jobs up
 * once their locks expire. An orchestrator's grace period must exceed it, or the drain is cut short.
 */
export const workerDrainBoundMs = (config: Pick<Config, 'shutdownTimeoutMs' | 'delivery'>): number =>
  config.shutdownTimeoutMs + config.delivery.timeoutMs;
