import type { Config } from '@dialog-relay/config';
import { createJobProducer, createReplyQueues, type JobProducer } from '@dialog-relay/queue';
import type { Redis, RedisKeys } from '@dialog-relay/redis';
import { createAbortRequester, createAttemptRegistry, type AbortRequester, type AttemptRegistry } from './attempt-aborts.js';
import { createAttemptStore, type AttemptStore } from './attempt.store.js';
import { createAutoReplies, type AutoReplies } from './auto-replies.js';
import { createDeliveryStore, type DeliveryStore } from './delivery.store.js';
import type { AutoReplyMetrics } from './reply-metrics.js';
import { createTurnStore, turnTimingsOf, type TurnStore } from './turn.store.js';

type Queue = ReturnType<typeof createReplyQueues>[number];

/** What the reply protocol reads from the configuration (config is parsed once, in packages/config). */
export type ReplyServicesConfig = Pick<
  Config,
  | 'context'
  | 'deadLetterTtlS'
  | 'jobFailureAttempts'
  | 'autoReplyDebounceMs'
  | 'autoReplyMaxWaitMs'
  | 'humanPauseMs'
  | 'replies'
  | 'pendingMessagesMax'
>;

export interface ReplyConnections {
  keys: RedisKeys;
  /** BullMQ's queues and the abort signals' publisher. */
  redis: Redis;
  /** The reply protocol's own reads and writes (the worker's commands connection, the API's request connection); default: redis. */
  commands?: Redis;
  /** Opens the pub/sub connection the aborts (or the worker's attempt registry) listen on; called once, when first needed. */
  openSubscriber: () => Redis;
}

export interface ReplyServicesOptions {
  /** BullMQ's telemetry (tracing on): a job carries the trace of the request that added it. */
  telemetry?: Parameters<typeof createReplyQueues>[2]['telemetry'];
  /** Told every error a queue emits (an unhandled one would end the process). */
  onQueueError?: (error: Error) => void;
  /** Replies cancelled before their attempt (the API's /metrics), read when autoReplies is first built. */
  autoReplyMetrics?: () => AutoReplyMetrics;
  /** Whether a request's composed script carries the turn steps (the API's one-round-trip ingress). */
  composedSteps?: boolean;
}

/**
 * The reply protocol's services, wired once for the API, the worker and the CLI (docs/development.md
 * "Composition root"). Each is built when first read, so a process opens only what it uses (the CLI's
 * `deliveries show` opens no queue and no subscriber); close() closes what was opened, not the
 * connections it was given.
 */
export interface ReplyServices {
  readonly keys: RedisKeys;
  readonly turns: TurnStore;
  readonly deliveries: DeliveryStore;
  /** One BullMQ queue per shard. */
  readonly queues: Queue[];
  readonly jobs: JobProducer;
  /** The ingress side: stop, human takeover and status ask attempts in flight to abort. */
  readonly aborts: AbortRequester;
  /** Schedule, cancel, stop, resume, status (the API and the CLI). */
  readonly autoReplies: AutoReplies;
  /** The worker's side of the aborts: the attempts it runs, aborted when asked. */
  readonly attempts: AttemptRegistry;
  /** The worker's attempt scripts (open, settle). */
  readonly attemptStore: AttemptStore;
  close(): Promise<void>;
}

const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

export function createReplyServices(
  config: ReplyServicesConfig,
  connections: ReplyConnections,
  options: ReplyServicesOptions = {},
): ReplyServices {
  const { keys, redis } = connections;
  const commands = connections.commands ?? redis;
  const timings = turnTimingsOf(config);
  let subscriber: Redis | undefined;
  const openSubscriber = (): Redis => (subscriber ??= connections.openSubscriber());
  const opened: { queues?: Queue[]; aborts?: AbortRequester; attempts?: AttemptRegistry } = {};

  const turns = once(() => createTurnStore({ redis: commands, keys, timings }));
  const deliveries = once(() =>
    createDeliveryStore({ redis: commands, keys, ttlS: config.context.ttlS, deadLetterTtlS: config.deadLetterTtlS }),
  );
  const queues = once(() => {
    opened.queues = createReplyQueues(redis, keys, { failureAttempts: config.jobFailureAttempts, telemetry: options.telemetry });
    const { onQueueError } = options;
    if (onQueueError) for (const queue of opened.queues) queue.on('error', onQueueError);
    return opened.queues;
  });
  const jobs = once(() => createJobProducer(queues(), keys));
  const aborts = once(() => (opened.aborts = createAbortRequester({ redis, subscriber: openSubscriber(), keys })));
  const attempts = once(() => (opened.attempts = createAttemptRegistry({ redis, subscriber: openSubscriber(), keys })));
  const autoReplies = once(() =>
    createAutoReplies({
      turns: turns(),
      deliveries: deliveries(),
      jobs: jobs(),
      aborts: aborts(),
      ...(options.autoReplyMetrics ? { metrics: options.autoReplyMetrics() } : {}),
      ...(options.composedSteps ? { steps: { keys, timings } } : {}),
      settings: { debounceMs: config.autoReplyDebounceMs, humanPauseMs: config.humanPauseMs, abortWaitMs: config.replies.abortWaitMs },
    }),
  );
  const attemptStore = once(() =>
    createAttemptStore({
      redis: commands,
      keys,
      attemptMarkerTtlMs: timings.attemptMarkerTtlMs,
      recordTtlS: config.context.ttlS,
      deadLetterTtlS: config.deadLetterTtlS,
      context: { maxMessages: config.context.maxMessages, ttlMs: config.context.ttlS * 1000 },
      take: timings,
    }),
  );

  return {
    keys,
    get turns() {
      return turns();
    },
    get deliveries() {
      return deliveries();
    },
    get queues() {
      return queues();
    },
    get jobs() {
      return jobs();
    },
    get aborts() {
      return aborts();
    },
    get autoReplies() {
      return autoReplies();
    },
    get attempts() {
      return attempts();
    },
    get attemptStore() {
      return attemptStore();
    },
    async close() {
      await Promise.all((opened.queues ?? []).map((queue) => queue.close().catch(() => undefined)));
      opened.aborts?.close();
      opened.attempts?.close();
      subscriber?.disconnect();
    },
  };
}
