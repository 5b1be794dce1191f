export * from './job-catalog.js';
export * from './reply-queue.js';
export * from './job-producer.js';
export * from './job-dispatcher.js';
export * from './oldest-due-job.js';
export * from './due-job-count.js';
