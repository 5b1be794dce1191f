import { createAdmission } from '@dialog-relay/admission';
import { createChatService } from '@dialog-relay/chat';
import { createClientRegistry, createClientStore } from '@dialog-relay/clients';
import type { Config } from '@dialog-relay/config';
import { createRequestValidator, DEFAULT_LIMITS } from '@dialog-relay/contracts';
import { createContextStore, createMessageIndex } from '@dialog-relay/conversations';
import type { Logger } from '@dialog-relay/logger';
import { checkSendUrl } from '@dialog-relay/net-guard';
import { createAutoReplyQueue, createConversationTurns, createDeliveryRecords, createReplyQueue } from '@dialog-relay/queue';
import { createRedisKeys, createRequestRedis, waitForRedis } from '@dialog-relay/redis';
import { createEngineFromConfig } from '@dialog-relay/reply-engine';
import type { Express } from 'express';
import { randomUUID } from 'node:crypto';
import { createApp } from './app.js';
import { createApiMetrics } from './http/metrics.js';
import { queueDashboard } from './http/queue-dashboard.js';

export interface Api {
  app: Express;
  /** Resolves when Redis is connected (rejects after timeoutMs; the API then answers 503 until it is). */
  ready(timeoutMs: number): Promise<void>;
  /** Marks the API as draining (readyz answers 503) before the HTTP server closes. */
  drain(): void;
  /** Closes the queue and Redis connections. */
  close(): Promise<void>;
}

/** Wires every package into the API for one configuration. No port is opened here. */
export async function buildApi(config: Config, logger: Logger): Promise<Api> {
  const keys = createRedisKeys(config.redisPrefix);
  const redis = createRequestRedis(config.redisUrl, { name: 'dialog-relay-api' });
  let redisDown = false;
  redis.on('error', (error: Error) => {
    if (!redisDown) logger.warn('redis connection lost', { error: error.message });
    redisDown = true;
  });
  redis.on('ready', () => {
    if (redisDown) logger.info('redis connection back');
    redisDown = false;
  });

  const engine = await createEngineFromConfig(config.replyEngine, { fallbackText: config.replyFallback, logger });
  const queue = createReplyQueue(redis, keys.bullPrefix);
  queue.on('error', (error: Error) => logger.warn('queue error', { error: error.message }));
  const turns = createConversationTurns({ redis, keys, pendingTtlMs: config.replyMaxAgeMs + 3_600_000 });
  const deliveries = createDeliveryRecords({ redis, keys, ttlS: config.context.ttlS });
  const policy = { allowPrivate: config.allowPrivateSendUrls };
  let draining = false;

  const clients = createClientRegistry({
    fromEnv: config.clients,
    store: createClientStore({ redis, keys, defaultRateLimitPerS: config.defaultRateLimitPerS }),
    cacheMs: config.clientCacheMs,
  });
  const chat = createChatService({
    validate: createRequestValidator({ ...config.limits, idMaxChars: DEFAULT_LIMITS.idMaxChars }),
    findClient: (id) => clients.get(id),
    admission: createAdmission({
      redis,
      keys,
      replayTtlMs: 2 * config.timestampToleranceS * 1000,
      idempotencyTtlMs: config.idempotencyTtlS * 1000,
      pendingTtlMs: 30_000,
    }),
    checkSendUrl: (raw) => checkSendUrl(raw, policy),
    timestampToleranceS: config.timestampToleranceS,
    contexts: createContextStore({ redis, keys, maxMessages: config.context.maxMessages, ttlSeconds: config.context.ttlS }),
    messageIndex: createMessageIndex({ redis, keys, ttlSeconds: config.context.ttlS }),
    engine,
    queue: createAutoReplyQueue({ queue, turns, deliveries, debounceMs: config.autoReplyDebounceMs, stopWaitMs: config.delivery.timeoutMs + 1000 }),
    newId: () => `m_${randomUUID().replaceAll('-', '')}`,
    nowMs: Date.now,
  });

  const app = createApp({
    chat,
    redis,
    logger,
    metrics: createApiMetrics(async () => ({
      jobs: await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
      deadLetters: await redis.zcard(keys.deadLetters),
    })),
    bodyLimitBytes: config.limits.bodyBytes,
    adminToken: config.adminToken,
    isDraining: () => draining,
    adminRoutes: config.adminToken === undefined ? undefined : queueDashboard([queue], '/admin/queues'),
  });
  return {
    app,
    ready: (timeoutMs) => waitForRedis(redis, timeoutMs),
    drain: () => {
      draining = true;
    },
    close: async () => {
      await queue.close().catch(() => undefined);
      redis.disconnect();
    },
  };
}
