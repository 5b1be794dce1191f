export {
  assertCompleteCatalog,
  QUEUE_NAMES,
  JOB_NAMES,
  DONE,
  turnJobId,
  type JobName,
  type JobPayloads,
  type JobDecision,
  type WaitingProgress,
  type JobHandlers,
} from './job-catalog.js';
export { createReplyQueues, replyQueueKeys, type ReplyQueueKeys } from './reply-queue.js';
export { createJobProducer, type JobProducer } from './job-producer.js';
export { createJobDispatcher, createFailedJobListener, cappedBackoffMs } from './job-dispatcher.js';
export { oldestDueJobAgeMs } from './oldest-due-job.js';
export { dueJobCount } from './due-job-count.js';
