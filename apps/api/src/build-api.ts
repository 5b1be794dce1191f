import { createAdmission } from '@dialog-relay/admission';
import { createChatService } from '@dialog-relay/chat';
import { createClientRegistry, createClientStore } from '@dialog-relay/clients';
import type { Config } from '@dialog-relay/config';
import { AppError, createRequestValidator, DEFAULT_LIMITS } from '@dialog-relay/contracts';
import { createContextStore, createMessageIndex } from '@dialog-relay/conversations';
import type { Logger } from '@dialog-relay/logger';
import { checkSendUrl, rememberingResolver, rememberingStaticCheck, systemResolver } from '@dialog-relay/net-guard';
import { dueJobCount, oldestDueJobAgeMs } from '@dialog-relay/queue';
import {
  checkShardCount,
  createRedis,
  createRedisKeys,
  createReplicaConfirmation,
  runSteps,
  ShardCountMismatchError,
  waitForRedis,
  type StepCall,
  subscriberOpener,
} from '@dialog-relay/redis';
import { createReplyServices } from '@dialog-relay/replies';
import { countedEngine, startReplyEngine } from '@dialog-relay/reply-engine';
import type { Tracing } from '@dialog-relay/tracing';
import type { Express } from 'express';
import { randomUUID } from 'node:crypto';
import { createApp } from './app.js';
import { createAuthThrottle } from './http/auth-throttle.js';
import { createApiMetrics } from './http/metrics.js';
import { queueDashboard } from './http/queue-dashboard.js';
import { servedOpenApiJson } from './served-openapi.js';

export interface BuildApiOptions {
  tracing?: Tracing | undefined;
  /**
   * Called when Redis says its data was written with another QUEUE_SHARDS (at start or, when Redis
   * was away then, once it is reachable): the process exits 78. Until the count is checked and
   * right, chat requests answer 503.
   */
  onShardMismatch?: (error: ShardCountMismatchError) => void;
}

export interface Api {
  app: Express;
  /** Resolves when Redis is connected and QUEUE_SHARDS checked (rejects after timeoutMs; the API then answers 503 until it is). */
  ready(timeoutMs: number): Promise<void>;
  /** Marks the API as draining (readyz answers 503) before the HTTP server closes. */
  drain(): void;
  /** Closes the queue and Redis connections. */
  close(): Promise<void>;
}

const sumCounts = (counts: Record<string, number>[]): Record<string, number> => {
  const total: Record<string, number> = {};
  for (const one of counts) for (const [state, n] of Object.entries(one)) total[state] = (total[state] ?? 0) + n;
  return total;
};

/** Wires every package into the API for one configuration. No port is opened here. */
export async function buildApi(config: Config, logger: Logger, options: BuildApiOptions = {}): Promise<Api> {
  const keys = createRedisKeys(config.redisPrefix, config.redis.shards);
  const redis = createRedis(config.redis, 'request', { name: 'dialog-relay-api' });
  let redisDown = false;
  redis.on('error', (error: Error) => {
    if (!redisDown) logger.warn('redis connection lost', { error: error.message });
    redisDown = true;
  });
  // QUEUE_SHARDS must match the count the data in Redis was written with before any conversation key
  // is touched (docs/design/scaling.md): checked at start, or as soon as Redis is reachable when it was away
  // then; chat requests wait for the check and answer 503 until it passes.
  let shardsChecked: Promise<void> | undefined;
  const checkShards = (): Promise<void> =>
    (shardsChecked ??= checkShardCount(redis, keys.shardCount, keys.shards).catch((error: unknown) => {
      shardsChecked = undefined;
      if (error instanceof ShardCountMismatchError) {
        logger.error('QUEUE_SHARDS does not match the data in Redis', { error: error.message });
        options.onShardMismatch?.(error);
      }
      throw error;
    }));
  const shardsReady = (): Promise<void> =>
    checkShards().catch((error: unknown) => {
      if (!(error instanceof ShardCountMismatchError)) throw error;
      throw new AppError('service_unavailable', 'The service is not ready: its QUEUE_SHARDS does not match the data in Redis.', {
        retryAfterS: 30,
      });
    });
  redis.on('ready', () => {
    if (redisDown) logger.info('redis connection back');
    redisDown = false;
    checkShards().catch(() => undefined);
  });

  // BullMQ defines its 64 scripts on the connection it is given: they stay on one of their own, and the
  // request connection carries our scripts' EVALSHAs only.
  const queueRedis = createRedis(config.redis, 'request', { name: 'dialog-relay-api-queues' });
  queueRedis.on('error', () => undefined); // reported once, by the request connection's listener above
  const replies = createReplyServices(
    config,
    {
      keys,
      redis: queueRedis,
      commands: redis,
      openSubscriber: subscriberOpener(config.redis, 'dialog-relay-api-signals'),
    },
    {
      telemetry: options.tracing?.bullmq,
      onQueueError: (error) => logger.warn('queue error', { error: error.message }),
      autoReplyMetrics: () => metrics.autoReplies,
      composedSteps: true,
    },
  );
  const { queues, deliveries } = replies;
  const metrics = createApiMetrics(async () => {
    const now = Date.now();
    const [counts, deadLetters, workers, dueJobs, oldestDueMs] = await Promise.all([
      Promise.all(queues.map((queue) => queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'))),
      deliveries.countDead(),
      // Every replica runs one worker per shard, so shard 0's workers are the replicas. CLIENT LIST may
      // be refused by a managed Redis: then the count is unknown (NaN), not an error.
      (queues[0]?.getWorkersCount() ?? Promise.resolve(Number.NaN)).catch(() => Number.NaN),
      dueJobCount(redis, queues, now),
      oldestDueJobAgeMs(redis, queues, now),
    ]);
    return { jobs: sumCounts(counts), deadLetters, workers, dueJobs, oldestDueMs };
  });
  const { autoReplies } = replies;
  // Behind Sentinel: an accepted auto_dialog message is on a replica before the 202 (docs/design/scaling.md).
  // WAIT blocks its connection, so it runs on a pool of its own, never on the shared one.
  const replication =
    config.redis.waitReplicas === 0
      ? undefined
      : createReplicaConfirmation({
          writer: redis,
          open: (name) => {
            const connection = createRedis(config.redis, 'request', { name, commandTimeoutMs: config.redis.waitTimeoutMs + 2000 });
            connection.on('error', () => undefined);
            return connection;
          },
          fenceKey: keys.replicationFence,
          replicas: config.redis.waitReplicas,
          timeoutMs: config.redis.waitTimeoutMs,
        });
  let draining = false;

  const clients = createClientRegistry({
    fromEnv: config.clients,
    store: createClientStore({ redis, keys, defaultRateLimitPerS: config.defaultRateLimitPerS }),
    cacheMs: config.clientCacheMs,
  });
  const replyEngine = await startReplyEngine(config, {
    logger,
    knowledgeFileOf: async (client) => (await clients.get(client))?.knowledgeFile,
  });
  const limits = { ...config.limits, idMaxChars: DEFAULT_LIMITS.idMaxChars };
  // a send_url host's addresses, remembered for the accept-time check (the worker resolves again when it connects)
  const resolveSendUrlHost = rememberingResolver(systemResolver);
  // and a send_url's parse and literal address check, remembered per text
  const checkStatically = rememberingStaticCheck();
  const chat = createChatService({
    validate: createRequestValidator(limits),
    findClient: (id) => clients.get(id),
    admission: createAdmission({
      redis,
      keys,
      replayTtlMs: config.admission.replayTtlMs,
      idempotencyTtlMs: config.admission.idempotencyTtlMs,
      pendingTtlMs: 30_000,
    }),
    checkSendUrl: (raw, client) =>
      checkSendUrl(
        raw,
        { allowPrivate: config.allowPrivateSendUrls || client.allowPrivateSendUrls },
        { resolve: resolveSendUrlHost, checkStatically },
      ),
    authThrottle: createAuthThrottle(config.ingress.authFailures),
    timestampToleranceS: config.timestampToleranceS,
    contexts: createContextStore({ redis, keys, maxMessages: config.context.maxMessages, ttlSeconds: config.context.ttlS }),
    messageIndex: createMessageIndex({ redis, keys, ttlSeconds: config.context.ttlS }),
    engine: countedEngine(replyEngine.engine, metrics.countReply),
    autoReplies,
    ...(replication === undefined ? {} : { replication }),
    ready: shardsReady,
    runParts: (calls) => runSteps(redis, calls as readonly StepCall[]),
    newId: () => `m_${randomUUID().replaceAll('-', '')}`,
    nowMs: Date.now,
  });

  const app = createApp({
    chat,
    redis,
    logger,
    metrics,
    bodyLimitBytes: config.limits.bodyBytes,
    adminToken: config.adminToken,
    trustProxy: config.ingress.trustProxy,
    isDraining: () => draining,
    adminWriteToken: config.ingress.adminWriteToken,
    // counted apart from the signatures' failures: guessing admin tokens does not lock integrators out
    adminThrottle: createAuthThrottle(config.ingress.authFailures),
    tracing: options.tracing,
    openApi: servedOpenApiJson(config),
    dashboard:
      config.adminToken === undefined && config.ingress.adminWriteToken === undefined ? undefined : queueDashboard(queues, '/admin/queues'),
  });
  return {
    app,
    ready: async (timeoutMs) => {
      await Promise.all([waitForRedis(redis, timeoutMs), waitForRedis(queueRedis, timeoutMs)]);
      await checkShards();
    },
    drain: () => {
      draining = true;
    },
    close: async () => {
      replyEngine.close();
      await replies.close();
      replication?.close();
      redis.disconnect();
      queueRedis.disconnect();
    },
  };
}
