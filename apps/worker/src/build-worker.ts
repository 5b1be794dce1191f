import { createClientRegistry, createClientStore } from '@dialog-relay/clients';
import { SERVICE_VERSION, type Config } from '@dialog-relay/config';
import { createContextStore } from '@dialog-relay/conversations';
import { createDeliverer } from '@dialog-relay/delivery';
import type { Logger } from '@dialog-relay/logger';
import {
  assertCompleteCatalog,
  cappedBackoffMs,
  createFailedJobListener,
  createJobDispatcher,
  oldestDueJobAgeMs,
  QUEUE_NAMES,
} from '@dialog-relay/queue';
import { checkShardCount, createRedis, createRedisKeys, subscriberOpener } from '@dialog-relay/redis';
import { createReplyServices, newDeliveryId } from '@dialog-relay/replies';
import { createReplyJobHandlers, startTurnSweeper, type WorkerDeps } from '@dialog-relay/replies/worker';
import { countedEngine, startReplyEngine } from '@dialog-relay/reply-engine';
import type { Tracing } from '@dialog-relay/tracing';
import { Worker, type Job } from 'bullmq';
import { hostname } from 'node:os';
import pLimit from 'p-limit';
import { tracedDeliverer, tracedEngine } from './traced.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { ShardWorker } from './shard-worker.js';
import { createTakeLimit } from './take-limit.js';
import { createWorkerMetrics } from './worker-metrics.js';

/** The webhook POSTs' User-Agent: the release's version (the root package.json's). */
export const USER_AGENT = `dialog-relay-webhooks/${SERVICE_VERSION}`;

export interface WorkerRuntime {
  /** One BullMQ worker per shard: every replica serves every shard. */
  workers: Worker[];
  /** GET /metrics of this replica, when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  /** Finishes the jobs in flight (or hands them back), then closes every connection. */
  close(): Promise<void>;
}

/** Wires the reply protocol's worker logic to BullMQ for one configuration; the worker starts at once. */
export async function buildWorker(config: Config, logger: Logger, options: { tracing?: Tracing | undefined } = {}): Promise<WorkerRuntime> {
  const { tracing } = options;
  const keys = createRedisKeys(config.redisPrefix, config.redis.shards);
  const redis = createRedis(config.redis, 'worker', { name: 'dialog-relay-worker' });
  redis.on('error', (error: Error) => logger.warn('redis error', { error: error.message }));
  await checkShardCount(redis, keys.shardCount, keys.shards);
  // The reply protocol's own reads and writes (BullMQ keeps its own connection, which blocks). Not
  // auto-pipelined: each batch would be born in the old generation (packages/redis, autoPipelining).
  const commands = createRedis(config.redis, 'worker', { name: 'dialog-relay-worker-commands', commands: true });
  commands.on('error', (error: Error) => logger.warn('redis error', { error: error.message }));
  const replies = createReplyServices(
    config,
    {
      keys,
      redis,
      commands,
      openSubscriber: subscriberOpener(config.redis, 'dialog-relay-worker-signals'),
    },
    { telemetry: tracing?.bullmq, onQueueError: (error) => logger.warn('queue error', { error: error.message }) },
  );
  const { queues, attempts } = replies;
  const deliverer = tracedDeliverer(createDeliverer({ allowPrivate: config.allowPrivateSendUrls, userAgent: USER_AGENT }), tracing);
  const clients = createClientRegistry({
    fromEnv: config.clients,
    store: createClientStore({ redis: commands, keys, defaultRateLimitPerS: config.defaultRateLimitPerS }),
    cacheMs: config.clientCacheMs,
  });
  const metrics = createWorkerMetrics(() => oldestDueJobAgeMs(redis, queues, Date.now()));

  const replyEngine = await startReplyEngine(config, {
    logger,
    knowledgeFileOf: async (client) => (await clients.get(client))?.knowledgeFile,
  });

  // Aborted when close() starts: a reply being produced is handed back instead of holding up the drain.
  const stopping = new AbortController();
  const { turns, jobs } = replies;
  const deps: WorkerDeps = {
    turns,
    deliveries: replies.deliveries,
    attemptStore: replies.attemptStore,
    contexts: createContextStore({ redis: commands, keys, maxMessages: config.context.maxMessages, ttlSeconds: config.context.ttlS }),
    engine: countedEngine(tracedEngine(replyEngine.engine, tracing), metrics.countReply),
    deliverer,
    attempts,
    findClient: (id) => clients.get(id),
    jobs,
    settings: {
      maxAttempts: config.delivery.maxAttempts,
      backoffMs: config.delivery.backoffMs,
      maxBackoffMs: config.delivery.maxBackoffMs,
      timeoutMs: config.delivery.timeoutMs,
      replyMaxAgeMs: config.replyMaxAgeMs,
      handoffPauseMs: config.handoffPauseMs,
    },
    logger,
    nowMs: Date.now,
    newDeliveryId: (conversationId) => newDeliveryId(keys.shardOf(conversationId)),
    metrics: metrics.replies,
    stopping: stopping.signal,
  };

  const handlers = createReplyJobHandlers(deps);
  assertCompleteCatalog(handlers);
  const dispatch = createJobDispatcher(handlers, {
    failureAttempts: config.jobFailureAttempts,
    onError: (job, error, givingUp) => {
      const data = job.data as { conversationId?: string; deliveryId?: string };
      logger.error(givingUp ? 'job failed for good: deciding its end' : 'job run failed: it will be retried', {
        job_id: job.id,
        attempt: job.attemptsMade + 1,
        conversation_id: data.conversationId,
        delivery_id: data.deliveryId,
        error: error.message,
      });
    },
  });
  await attempts.ready().catch(() => undefined);
  // Before the worker takes jobs: a port already taken stops start-up with nothing half-running.
  let metricsServer: MetricsServer | undefined;
  if (config.metricsPort !== undefined) {
    metricsServer = await startMetricsServer({
      registry: metrics.registry,
      adminToken: config.adminToken,
      host: config.host,
      port: config.metricsPort,
    });
    logger.info('worker metrics served', { url: metricsServer.url });
  }

  const onFailedForGood = createFailedJobListener(handlers, (job, error) =>
    logger.error('deciding the end of a failed job failed', { job_id: job.id, error: error.message }),
  );
  // WORKER_CONCURRENCY is the replica's total: one limit around the dispatcher for every shard's worker
  // caps what runs; the take limit caps what the replica takes (WORKER_CONCURRENCY + shards - 1), so
  // jobs it could not run yet stay free for the other replicas.
  const running = pLimit(config.workerConcurrency);
  const workers: Worker[] = [];
  const takeLimit = createTakeLimit(keys.shards, config.workerConcurrency, (shard, concurrency) => {
    const worker = workers[shard];
    if (worker) worker.concurrency = concurrency;
  });
  keys.shardTags.forEach((_, shard) => {
    const processJob = (job: Job, token: string | undefined): Promise<void> => running(() => dispatch(job, token));
    const worker = new ShardWorker(
      QUEUE_NAMES.replies,
      processJob,
      {
        connection: redis,
        prefix: keys.bullPrefix(shard),
        // A job records the replica that took it (processedBy): the dashboard and the tests see who holds what.
        name: `${hostname()}:${process.pid}`,
        concurrency: takeLimit.limitOf(shard),
        lockDuration: config.workerLockMs,
        stalledInterval: config.workerStalledIntervalMs,
        ...(tracing === undefined ? {} : { telemetry: tracing.bullmq }),
        maxStalledCount: config.workerMaxStalledCount,
        settings: { backoffStrategy: (attemptsMade: number) => cappedBackoffMs(attemptsMade) },
      },
      takeLimit,
      shard,
    );
    workers.push(worker);
    worker.on('error', (error: Error) => logger.error('worker error', { shard, error: error.message }));
    worker.on('failed', (job, error) => void onFailedForGood(job, error));
    for (const event of ['active', 'completed', 'failed'] as const) worker.on(event, () => metrics.jobActivity());
  });
  // The safety net for messages left waiting without a turn job (docs/design/reply-protocol.md).
  const sweeper = startTurnSweeper({
    turns,
    jobs,
    shards: keys.shards,
    logger,
    settings: { rescueAfterMs: config.replies.rescueAfterMs, intervalMs: config.replies.sweepIntervalMs },
  });
  return {
    workers,
    metricsUrl: metricsServer?.url,
    close: async () => {
      stopping.abort(new Error('worker draining'));
      await sweeper.stop();
      replyEngine.close();
      await metricsServer?.close();
      await Promise.all(workers.map((worker) => worker.close()));
      deliverer.close();
      await replies.close();
      commands.disconnect();
      redis.disconnect();
    },
  };
}
