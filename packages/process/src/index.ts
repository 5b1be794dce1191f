export { boundChildren } from './bound-children.js';
export { createReplyCounter } from './reply-counter.js';
export { runService, exitOnFatal, type ServiceName, type StartedService } from './service-start.js';
export { createOldestWaitingGauge } from './oldest-waiting-gauge.js';
export { collectProcessMetrics, EVENT_LOOP_SAMPLE_MS } from './process-metrics.js';
