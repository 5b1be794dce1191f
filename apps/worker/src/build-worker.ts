import { type WorkerDeps } from '@dialog-relay/auto-reply';
import { createClientRegistry, createClientStore } from '@dialog-relay/clients';
import type { Config } from '@dialog-relay/config';
import { createContextStore } from '@dialog-relay/conversations';
import { createDeliverer } from '@dialog-relay/delivery';
import type { Logger } from '@dialog-relay/logger';
import { addTurnJob, assertCompleteCatalog, createConversationTurns, createDeliveryRecords, createReplyQueue, JOB_NAMES, QUEUE_NAMES, type JobPayloads } from '@dialog-relay/queue';
import { createRedisKeys, createWorkerRedis } from '@dialog-relay/redis';
import { createEngineFromConfig } from '@dialog-relay/reply-engine';
import { Worker, type Job } from 'bullmq';
import { conversationTurnProcessor } from './processors/conversation-turn.processor.js';
import { redeliverProcessor } from './processors/redeliver.processor.js';

export const USER_AGENT = 'dialog-relay-webhooks/0.1.0';

export interface WorkerRuntime {
  worker: Worker;
  /** Finishes the jobs in flight (or hands them back), then closes every connection. */
  close(): Promise<void>;
}

type Handler = (job: Job, payload: never, token: string | undefined) => Promise<void>;

/** Wires the worker's domain logic to BullMQ for one configuration; the worker starts at once. */
export async function buildWorker(config: Config, logger: Logger): Promise<WorkerRuntime> {
  const keys = createRedisKeys(config.redisPrefix);
  const redis = createWorkerRedis(config.redisUrl, { name: 'dialog-relay-worker' });
  redis.on('error', (error: Error) => logger.warn('redis error', { error: error.message }));
  const queue = createReplyQueue(redis, keys.bullPrefix);
  queue.on('error', (error: Error) => logger.warn('queue error', { error: error.message }));
  const deliverer = createDeliverer({ allowPrivate: config.allowPrivateSendUrls, userAgent: USER_AGENT });
  const clients = createClientRegistry({
    fromEnv: config.clients,
    store: createClientStore({ redis, keys, defaultRateLimitPerS: config.defaultRateLimitPerS }),
    cacheMs: config.clientCacheMs,
  });

  const deps: WorkerDeps = {
    turns: createConversationTurns({ redis, keys, pendingTtlMs: config.replyMaxAgeMs + 3_600_000 }),
    deliveries: createDeliveryRecords({ redis, keys, ttlS: config.context.ttlS }),
    contexts: createContextStore({ redis, keys, maxMessages: config.context.maxMessages, ttlSeconds: config.context.ttlS }),
    engine: await createEngineFromConfig(config.replyEngine, { fallbackText: config.replyFallback, logger }),
    deliverer,
    findClient: (id) => clients.get(id),
    addTurnJob: (conversationId, generation, delayMs) => addTurnJob(queue, conversationId, generation, delayMs),
    settings: {
      debounceMs: config.autoReplyDebounceMs,
      maxAttempts: config.delivery.maxAttempts,
      backoffMs: config.delivery.backoffMs,
      maxBackoffMs: config.delivery.maxBackoffMs,
      timeoutMs: config.delivery.timeoutMs,
      replyMaxAgeMs: config.replyMaxAgeMs,
    },
    logger,
    nowMs: Date.now,
  };

  const handlers = {
    [JOB_NAMES.conversationTurn]: conversationTurnProcessor(deps),
    [JOB_NAMES.redeliver]: redeliverProcessor(deps),
  } satisfies Record<keyof JobPayloads, Handler>;
  assertCompleteCatalog(handlers);

  const worker = new Worker(
    QUEUE_NAMES.replies,
    async (job: Job, token?: string) => {
      const handler = (handlers as Record<string, Handler | undefined>)[job.name];
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      await handler(job, job.data as never, token);
    },
    {
      connection: redis,
      prefix: keys.bullPrefix,
      concurrency: config.workerConcurrency,
      lockDuration: config.workerLockMs,
      stalledInterval: config.workerStalledIntervalMs,
      maxStalledCount: 10,
    },
  );
  worker.on('error', (error: Error) => logger.error('worker error', { error: error.message }));
  worker.on('failed', (job, error: Error) => {
    const data = job?.data as { conversationId?: string; deliveryId?: string } | undefined;
    logger.error('job failed', { job_id: job?.id, conversation_id: data?.conversationId, delivery_id: data?.deliveryId, error: error.message });
  });
  return {
    worker,
    close: async () => {
      await worker.close();
      await queue.close();
      deliverer.close();
      redis.disconnect();
    },
  };
}
