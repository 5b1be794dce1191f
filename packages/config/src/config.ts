import { readRedisConfig, type RedisConfig } from './redis-config.js';
import { MAX_RATE_LIMIT_PER_S, MIN_SECRET_CHARS } from './client-checks.js';
import { parseClientsJson, type ClientSettings } from './client-settings.js';
import { readIngressConfig, type IngressConfig } from './ingress-config.js';
import {
  ConfigError,
  readBool,
  readEnum,
  readInt,
  readOptionalString,
  readOptionalToken,
  readString,
  readUrl,
  type Env,
} from './env-readers.js';
import { readOtelResource, type OtelResource } from './otel-config.js';
import { withSecretFiles } from './secret-files.js';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** An OpenAI-compatible /v1/embeddings endpoint that re-ranks the knowledge engine's uncertain answers. */
export interface EmbeddingsConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

/** An OpenAI-compatible chat-completions engine (REPLY_ENGINE=openai); the engine's options take its connection fields from here. */
export interface OpenAiEngineConfig {
  kind: 'openai';
  /** API root including the version, e.g. http://127.0.0.1:1234/v1 (trailing slashes are ignored). */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Limit of each attempt, in milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt, on 408/429/5xx answers, timeouts and network errors. */
  maxRetries: number;
  /** The operator's voice; with grounding, the fixed grounding rules follow it. */
  systemPrompt: string;
  /** The knowledge the model answers from (docs/service-rules.md §17): KNOWLEDGE_FILE, else the bundled example. */
  knowledgeFile: string | undefined;
  /** KNOWLEDGE_CONTEXT_ENTRIES and KNOWLEDGE_CONTEXT_MAX_CHARS: how much of it one prompt shows. */
  contextEntries: number;
  contextMaxChars: number;
}

export type ReplyEngineConfig =
  { kind: 'knowledge'; knowledgeFile: string | undefined; embeddings?: EmbeddingsConfig } | OpenAiEngineConfig;

/** Everything dialog-relay reads from the environment (docs/service-rules.md §10), validated once and frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Which Redis, how to reach it, and how replies are sharded over it (docs/service-rules.md §13). */
  readonly redis: RedisConfig;
  /** Every Redis key (and BullMQ's) lives under this prefix. */
  readonly redisPrefix: string;
  readonly clients: ReadonlyMap<string, ClientSettings>;
  readonly clientCacheMs: number;
  readonly defaultRateLimitPerS: number;
  readonly timestampToleranceS: number;
  readonly idempotencyTtlS: number;
  /**
   * Derived (docs/design/decisions.md "Replay key"): a timestamp is accepted while |floor(now) - timestamp|
   * <= tolerance, for up to 2 x tolerance + 1 seconds, so a request's replay key lives that long from
   * its first acceptance; a msg_id's first answer stands in for that key, so it lives at least as long.
   */
  readonly admission: { readonly replayTtlMs: number; readonly idempotencyTtlMs: number };
  readonly limits: { readonly bodyBytes: number; readonly contentMaxChars: number; readonly filesMax: number; readonly atListMax: number };
  readonly context: { readonly maxMessages: number; readonly ttlS: number };
  /**
   * DEAD_LETTER_TTL_S: how long a dead letter (record and attempts) is kept from the moment it died
   * or was replayed, for the operator to list and replay it; at least CONTEXT_TTL_S (how long any
   * delivery record is kept) and longer than a reply can live (a replay's redelivery).
   */
  readonly deadLetterTtlS: number;
  readonly autoReplyDebounceMs: number;
  /** The debounce ceiling: a reply comes at the latest this long after the oldest unanswered message. */
  readonly autoReplyMaxWaitMs: number;
  /** How long a human's message pauses auto replies (0: it only cancels the unsent reply). */
  readonly humanPauseMs: number;
  /** HANDOFF_PAUSE_S (default HUMAN_PAUSE_S): how long a handoff in auto_dialog pauses the conversation's bot replies. */
  readonly handoffPauseMs: number;
  /** PENDING_MESSAGES_MAX: unanswered auto_dialog messages a conversation may hold waiting; past it the API answers 429 pending_limit. */
  readonly pendingMessagesMax: number;
  readonly replyMaxAgeMs: number;
  readonly delivery: {
    readonly maxAttempts: number;
    readonly backoffMs: number;
    readonly maxBackoffMs: number;
    readonly timeoutMs: number;
  };
  readonly allowPrivateSendUrls: boolean;
  readonly workerConcurrency: number;
  /** BullMQ job lock; longer than a delivery attempt so a slow receiver never gets a second concurrent delivery. */
  readonly workerLockMs: number;
  /** How often a worker looks for jobs of a dead worker (stalled jobs) to take them up. */
  readonly workerStalledIntervalMs: number;
  /** Stalls (lock lost, e.g. Redis away or a replica gone) BullMQ allows a job before it gives up on it; the worker then hands it back as due. */
  readonly workerMaxStalledCount: number;
  /** Failed runs of one job before its final failure is decided (dead letter, turn finished). */
  readonly jobFailureAttempts: number;
  /** Derived timings of the reply protocol, computed once here (relations checked in loadConfig). */
  readonly replies: {
    /** Expiry of pending messages and turn batches: longer than a reply can live. */
    readonly pendingTtlMs: number;
    /** Expiry of the marker of an attempt in flight: longer than one attempt. */
    readonly attemptMarkerTtlMs: number;
    /** How long stop_auto_reply waits at most for an aborted attempt to end: the answer comes within a second. */
    readonly abortWaitMs: number;
    /**
     * The safety net (docs/design/reply-protocol.md): messages that have waited this long (a few debounce
     * ceilings, at least 3 s) are checked for a turn job, which is added if it is missing.
     */
    readonly rescueAfterMs: number;
    /** How often each worker sweeps every shard for such messages (before jitter: from half to one and a half times this). */
    readonly sweepIntervalMs: number;
  };
  readonly replyEngine: ReplyEngineConfig;
  /** The text sent when the engine cannot answer (openai failing for good); '' sends nothing. */
  readonly replyFallback: string;
  readonly adminToken: string | undefined;
  /** METRICS_PORT: where each worker serves GET /metrics (behind ADMIN_TOKEN, on HOST); undefined: no metrics server. */
  readonly metricsPort: number | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go (OTLP over HTTP); undefined: tracing off. */
  readonly otelEndpoint: string | undefined;
  /** OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES: what the traces' resource says about this process. */
  readonly otelResource: OtelResource;
  readonly logLevel: LogLevel;
  readonly shutdownTimeoutMs: number;
  /**
   * SHUTDOWN_DELAY_MS: after SIGTERM the API answers /readyz 503 at once but goes on serving requests
   * this long (an orchestrator removes the endpoint meanwhile), then drains as usual. 0: drain at once.
   */
  readonly shutdownDelayMs: number;
  /**
   * HEAP_GROWING_PERCENT: how far V8 lets the old generation grow past what survived the last full
   * collection before the next one (V8's --heap-growing-percent; 0: V8's own adaptive factor, up to
   * 4× on a machine with memory to spare), per process. Set, it holds for both; unset, the API keeps
   * V8's factor (50 cost it 20-30 % more CPU per request) and the worker grows by 50 % (no measurable
   * cost per reply, and its RSS stays under 250 MiB). docs/design/performance-log.md, thirteenth session.
   */
  readonly heapGrowingPercent: { readonly api: number; readonly worker: number };
  /**
   * WORKER_HEARTBEAT_FILE: a file each worker touches every intervalMs while its event loop turns and
   * its queue workers run; the container's liveness check (scripts/worker-health.mjs) reads its age.
   * undefined: no heartbeat.
   */
  readonly workerHeartbeat: { readonly file: string | undefined; readonly intervalMs: number };
  /** HTTP time-outs, failed-auth throttle and ADMIN_WRITE_TOKEN (ingress-config.ts). */
  readonly ingress: IngressConfig;
  /**
   * What start-up should warn about without refusing (a secret file others may read): each process
   * logs these once its logger exists. Never a secret's value.
   */
  readonly warnings: readonly string[];
}

const DEFAULT_FALLBACK = 'Thanks for your message. A colleague will get back to you shortly.';

/** HEAP_GROWING_PERCENT for both processes when set; else the API's V8 factor (0) and the worker's 50. */
function heapGrowingPercent(env: Env): Config['heapGrowingPercent'] {
  const percent = readInt(env, 'HEAP_GROWING_PERCENT', -1, 0, 1000); // -1: not set
  return Object.freeze(percent === -1 ? { api: 0, worker: 50 } : { api: percent, worker: percent });
}

function readEmbeddings(env: Env): EmbeddingsConfig | undefined {
  if (readOptionalString(env, 'EMBEDDINGS_BASE_URL') === undefined) return undefined;
  return {
    baseUrl: readUrl(env, 'EMBEDDINGS_BASE_URL', '', ['http:', 'https:']),
    apiKey: readOptionalString(env, 'EMBEDDINGS_API_KEY'),
    model: readString(env, 'EMBEDDINGS_MODEL', 'text-embedding-3-small'),
    timeoutMs: readInt(env, 'EMBEDDINGS_TIMEOUT_MS', 2000, 50, 60_000),
  };
}

function readReplyEngine(env: Env): ReplyEngineConfig {
  const kind = readEnum(env, 'REPLY_ENGINE', ['knowledge', 'openai'] as const, 'knowledge');
  if (kind === 'knowledge') {
    const knowledgeFile = readOptionalString(env, 'KNOWLEDGE_FILE');
    const embeddings = readEmbeddings(env);
    return embeddings ? { kind, knowledgeFile, embeddings } : { kind, knowledgeFile };
  }
  const apiKey = readOptionalString(env, 'OPENAI_API_KEY');
  if (apiKey === undefined) throw new ConfigError('OPENAI_API_KEY', 'required when REPLY_ENGINE=openai');
  return {
    kind,
    baseUrl: readUrl(env, 'OPENAI_BASE_URL', 'https://api.openai.com/v1', ['http:', 'https:']),
    apiKey,
    model: readString(env, 'OPENAI_MODEL', 'gpt-4o-mini'),
    timeoutMs: readInt(env, 'OPENAI_TIMEOUT_MS', 20_000, 100, 300_000),
    maxRetries: readInt(env, 'OPENAI_MAX_RETRIES', 2, 0, 10),
    systemPrompt: readString(
      env,
      'OPENAI_SYSTEM_PROMPT',
      'You are a friendly, concise customer-service agent. Answer in the language of the customer.',
    ),
    knowledgeFile: readOptionalString(env, 'KNOWLEDGE_FILE'),
    contextEntries: readInt(env, 'KNOWLEDGE_CONTEXT_ENTRIES', 6, 1, 50),
    contextMaxChars: readInt(env, 'KNOWLEDGE_CONTEXT_MAX_CHARS', 8000, 500, 100_000),
  };
}

function readClients(
  env: Env,
  defaults: { defaultRateLimitPerS: number; allowPrivateSendUrls: boolean },
): ReadonlyMap<string, ClientSettings> {
  const raw = readOptionalString(env, 'CLIENTS');
  if (raw === undefined) return new Map();
  try {
    return parseClientsJson(raw, defaults);
  } catch (error) {
    throw new ConfigError('CLIENTS', (error as Error).message);
  }
}

/**
 * Parses the environment, reading the secrets given as files (`<NAME>_FILE`, secret-files.ts).
 * Throws ConfigError naming the first bad variable.
 */
export function loadConfig(environment: Env): Config {
  const { env, warnings } = withSecretFiles(environment);
  const defaultRateLimitPerS = readInt(env, 'RATE_LIMIT_PER_S', 50, 1, MAX_RATE_LIMIT_PER_S);
  const timestampToleranceS = readInt(env, 'TIMESTAMP_TOLERANCE_S', 300, 1, 86_400);
  const idempotencyTtlS = readInt(env, 'IDEMPOTENCY_TTL_S', 86_400, 60, 30 * 86_400);
  const replayTtlMs = (2 * timestampToleranceS + 1) * 1000;
  const allowPrivateSendUrls = readBool(env, 'ALLOW_PRIVATE_SEND_URLS', false);
  const redisPrefix = readString(env, 'REDIS_PREFIX', 'dr:');
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(redisPrefix)) throw new ConfigError('REDIS_PREFIX', 'use 1-64 characters of A-Z a-z 0-9 : _ . -');
  const timeoutMs = readInt(env, 'DELIVERY_TIMEOUT_MS', 10_000, 100, 300_000);
  const workerLockMs = readInt(env, 'WORKER_LOCK_MS', Math.max(30_000, 2 * timeoutMs + 5000), 1000, 3_600_000);
  if (workerLockMs <= timeoutMs + 1000)
    throw new ConfigError('WORKER_LOCK_MS', `must exceed DELIVERY_TIMEOUT_MS + 1000 (${timeoutMs + 1000})`);
  const autoReplyDebounceMs = readInt(env, 'AUTO_REPLY_DEBOUNCE_MS', 1000, 0, 600_000);
  const autoReplyMaxWaitMs = readInt(env, 'AUTO_REPLY_MAX_WAIT_MS', Math.max(5000, autoReplyDebounceMs), 0, 3_600_000);
  const humanPauseMs = readInt(env, 'HUMAN_PAUSE_S', 0, 0, 30 * 86_400) * 1000;
  if (autoReplyMaxWaitMs < autoReplyDebounceMs)
    throw new ConfigError('AUTO_REPLY_MAX_WAIT_MS', `must be at least AUTO_REPLY_DEBOUNCE_MS (${autoReplyDebounceMs})`);
  const replyMaxAgeMs = readInt(env, 'REPLY_MAX_AGE_MS', 15 * 60_000, 1000, 7 * 86_400_000);
  const rescueAfterMs = 3 * Math.max(autoReplyMaxWaitMs, 1000);
  const pendingTtlMs = replyMaxAgeMs + autoReplyMaxWaitMs + 3_600_000;
  const contextTtlS = readInt(env, 'CONTEXT_TTL_S', 7 * 86_400, 60, 365 * 86_400);
  // A dead letter outlives any delivery record and a replay's redelivery (docs/service-rules.md §7).
  const deadLetterMinS = Math.max(contextTtlS, Math.ceil(pendingTtlMs / 1000));
  const deadLetterTtlS = readInt(env, 'DEAD_LETTER_TTL_S', Math.max(30 * 86_400, deadLetterMinS), 60, 365 * 86_400);
  if (deadLetterTtlS < deadLetterMinS) {
    throw new ConfigError(
      'DEAD_LETTER_TTL_S',
      `must be at least CONTEXT_TTL_S (${contextTtlS}) and REPLY_MAX_AGE_MS + AUTO_REPLY_MAX_WAIT_MS + 1 h in seconds (${Math.ceil(pendingTtlMs / 1000)})`,
    );
  }
  const config: Config = {
    port: readInt(env, 'PORT', 8080, 0, 65535),
    host: readString(env, 'HOST', '0.0.0.0'),
    redis: readRedisConfig(env),
    redisPrefix,
    clients: readClients(env, { defaultRateLimitPerS, allowPrivateSendUrls }),
    clientCacheMs: readInt(env, 'CLIENT_CACHE_MS', 5000, 0, 3_600_000),
    defaultRateLimitPerS,
    timestampToleranceS,
    idempotencyTtlS,
    admission: Object.freeze({ replayTtlMs, idempotencyTtlMs: Math.max(idempotencyTtlS * 1000, replayTtlMs) }),
    limits: Object.freeze({
      bodyBytes: readInt(env, 'BODY_LIMIT_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      contentMaxChars: readInt(env, 'CONTENT_MAX_CHARS', 10_000, 1, 1_000_000),
      filesMax: readInt(env, 'FILES_MAX', 10, 1, 1000),
      atListMax: readInt(env, 'AT_LIST_MAX', 100, 1, 10_000),
    }),
    context: Object.freeze({
      maxMessages: readInt(env, 'CONTEXT_MAX_MESSAGES', 50, 1, 10_000),
      ttlS: contextTtlS,
    }),
    deadLetterTtlS,
    autoReplyDebounceMs,
    autoReplyMaxWaitMs,
    humanPauseMs,
    handoffPauseMs: readInt(env, 'HANDOFF_PAUSE_S', humanPauseMs / 1000, 0, 30 * 86_400) * 1000,
    pendingMessagesMax: readInt(env, 'PENDING_MESSAGES_MAX', 200, 1, 100_000),
    replyMaxAgeMs,
    delivery: Object.freeze({
      maxAttempts: readInt(env, 'DELIVERY_MAX_ATTEMPTS', 8, 1, 100),
      backoffMs: readInt(env, 'DELIVERY_BACKOFF_MS', 1000, 1, 3_600_000),
      maxBackoffMs: readInt(env, 'DELIVERY_MAX_BACKOFF_MS', 300_000, 1, 86_400_000),
      timeoutMs,
    }),
    allowPrivateSendUrls,
    workerConcurrency: readInt(env, 'WORKER_CONCURRENCY', 64, 1, 1000),
    workerLockMs,
    workerStalledIntervalMs: readInt(env, 'WORKER_STALLED_INTERVAL_MS', 30_000, 100, 600_000),
    workerMaxStalledCount: readInt(env, 'WORKER_MAX_STALLED_COUNT', 10, 0, 1000),
    jobFailureAttempts: readInt(env, 'JOB_FAILURE_ATTEMPTS', 5, 1, 100),
    replies: Object.freeze({
      pendingTtlMs,
      attemptMarkerTtlMs: timeoutMs + 5000,
      abortWaitMs: 800,
      rescueAfterMs,
      sweepIntervalMs: Math.min(5000, Math.max(1000, Math.floor(rescueAfterMs / 3))),
    }),
    replyEngine: readReplyEngine(env),
    replyFallback: env['REPLY_FALLBACK'] ?? DEFAULT_FALLBACK,
    adminToken: readOptionalToken(env, 'ADMIN_TOKEN', MIN_SECRET_CHARS),
    otelResource: readOtelResource(env),
    otelEndpoint:
      env['OTEL_EXPORTER_OTLP_ENDPOINT'] === undefined || env['OTEL_EXPORTER_OTLP_ENDPOINT'] === ''
        ? undefined
        : readUrl(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', '', ['http:', 'https:']),
    metricsPort: env['METRICS_PORT'] === undefined || env['METRICS_PORT'] === '' ? undefined : readInt(env, 'METRICS_PORT', 0, 0, 65535),
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    shutdownTimeoutMs: readInt(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    shutdownDelayMs: readInt(env, 'SHUTDOWN_DELAY_MS', 0, 0, 600_000),
    heapGrowingPercent: heapGrowingPercent(env),
    workerHeartbeat: Object.freeze({
      file: readOptionalString(env, 'WORKER_HEARTBEAT_FILE'),
      intervalMs: readInt(env, 'WORKER_HEARTBEAT_INTERVAL_MS', 5000, 100, 600_000),
    }),
    ingress: readIngressConfig(env),
    warnings: Object.freeze([...warnings]),
  };
  return Object.freeze(config);
}
