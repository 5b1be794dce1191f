import { parseClientRecord, type ClientSettings } from '@dialog-relay/config';
import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';
import { contextMessageFrom, createContextStore, type ContextStore } from '@dialog-relay/conversations';
import { failedOutcome, NOT_SENT, type AttemptOutcome, type Deliverer, type DeliveryRequest } from '@dialog-relay/delivery';
import { createLogger } from '@dialog-relay/logger';
import { createRedisKeys, type Redis, type RedisKeys } from '@dialog-relay/redis';
import type { EngineReply, ReplyEngine, ReplyRequest } from '@dialog-relay/reply-engine';
import { signWebhook } from '@dialog-relay/signing';
import { uniquePrefix } from '@dialog-relay/testkit';
import {
  createAttemptStore,
  createAutoReplies,
  createDeliveryStore,
  createTurnStore,
  type AbortRequester,
  type AttemptRegistry,
  type AutoReplies,
  type DeliverySettings,
  type DeliveryStore,
  type DueMessage,
  type TurnStore,
  type TurnTimings,
  type WorkerDeps,
} from './internals.js';

/** Readable delivery ids for tests: the harness hands take() this id (production uses newDeliveryId). */
export const testDeliveryId = (conversationId: string, generation: number): string => `dlv_${conversationId.slice(2)}_${generation}`;

/** A fixed start time for the controllable clock (the worker's clock; Redis keeps its own). */
/** The bytes of a delivery request's signing key, whichever form it came in. */
/** What a delivery's signing key signs a fixed probe as: two keys that sign it alike are the same key. */
export const keyProbe = (key: DeliveryRequest['signingKey']): string => signWebhook({ key, id: 'probe', timestamp: 0, body: '' });

export const T0 = 1_700_000_000_000;

export const CLIENT_ID = 'shop';
export const WEBHOOK_SECRET = 'whsec_' + Buffer.from('webhook-key-of-the-shop').toString('base64');
export const CLIENT: ClientSettings = parseClientRecord(CLIENT_ID, { secret: 'request-secret', webhook_secret: WEBHOOK_SECRET }, 10);

export const SEND_URL = 'https://receiver.example/hooks';
export const BOUND = 'bound-account';
export const CUSTOMER = 'customer-1';

/** How long the harness keeps a delivery record (CONTEXT_TTL_S) and a dead letter (DEAD_LETTER_TTL_S), in seconds. */
export const RECORD_TTL_S = 3600;
export const DEAD_LETTER_TTL_S = 86_400;

export const TIMINGS: TurnTimings = { debounceMs: 0, maxWaitMs: 0, pendingTtlMs: 3_600_000, attemptMarkerTtlMs: 7000 };

export const SETTINGS: DeliverySettings = {
  maxAttempts: 3,
  backoffMs: 1000,
  maxBackoffMs: 8000,
  timeoutMs: 2000,
  replyMaxAgeMs: 60_000,
};

/** Outcomes as the real Deliverer reports them. */
export const outcome = {
  delivered: (status = 200): AttemptOutcome => ({
    kind: 'delivered',
    status,
    error: null,
    latencyMs: 12,
    retryAfterMs: null,
    responseBody: 'ok',
  }),
  retry: (status = 503, retryAfterMs: number | null = null): AttemptOutcome => ({
    kind: 'retry',
    status,
    error: null,
    latencyMs: 20,
    retryAfterMs,
    responseBody: 'busy',
  }),
  permanent: (status = 400): AttemptOutcome => ({
    kind: 'permanent',
    status,
    error: null,
    latencyMs: 8,
    retryAfterMs: null,
    responseBody: 'bad request',
  }),
};

/** A Deliverer that answers from a script (then 'delivered') and records every request it was given. */
export class ScriptedDeliverer implements Deliverer {
  readonly requests: DeliveryRequest[] = [];
  /** Runs inside deliver(), before the outcome is returned (to make things happen "during" an attempt). */
  during: ((request: DeliveryRequest) => Promise<void>) | undefined;
  constructor(private readonly script: AttemptOutcome[] = []) {}
  answer(...outcomes: AttemptOutcome[]): this {
    this.script.push(...outcomes);
    return this;
  }
  async deliver(request: DeliveryRequest): Promise<AttemptOutcome> {
    this.requests.push(request);
    if (this.during) await this.during(request);
    // Like the real deliverer: a refusal once the connection is open sends nothing.
    if (request.beforeSend && !(await request.beforeSend())) return failedOutcome('permanent', NOT_SENT, 0);
    return this.script.shift() ?? outcome.delivered();
  }
  close(): void {}
  /** msg_id of the message each delivered body answers (in_reply_to), in delivery order. */
  answered(): string[][] {
    return this.requests.map((r) => (JSON.parse(r.body) as { in_reply_to: string[] }).in_reply_to);
  }
}

/** A ReplyEngine that answers every message with fixed parts ([] = nothing to send) and counts its calls. */
export class FixedEngine implements ReplyEngine {
  contextWindow = 50;
  readonly name = 'fixed';
  readonly calls: ReplyRequest[] = [];
  during: ((request: ReplyRequest) => Promise<void>) | undefined;
  /** The next replies hand off (their parts: `parts`), with no sources. */
  handoff = false;
  constructor(public parts: ReplyPart[] = [{ type: 'text', content: 'We open at nine.' }]) {}
  async reply(request: ReplyRequest): Promise<EngineReply> {
    this.calls.push(request);
    if (this.during) await this.during(request);
    const content = this.parts.map((p) => ({ ...p }));
    return this.handoff
      ? { content, handoff: true, sources: [], outcome: 'handoff' }
      : { content, handoff: false, sources: ['fixed-entry'], outcome: 'answered' };
  }
}

export interface Clock {
  now: number;
  advance(ms: number): void;
}

export interface Harness {
  deps: WorkerDeps;
  keys: RedisKeys;
  /** The store itself (take() wants a delivery id; deps.turns hands it testDeliveryId). */
  turns: TurnStore;
  deliveries: DeliveryStore;
  /** The ingress side over the same stores (jobs and aborts recorded, not run). */
  replies: AutoReplies;
  /** What the ingress side reported to its metrics port, in order. */
  ingressMetrics: unknown[][];
  aborts: { conversationId: string; deliveryId: string }[];
  /** Attempts registered in flight, to abort them as a worker would on a signal. */
  inFlight: Map<string, AbortController>;
  /** Aborted attempts the worker said had ended (delivery ids), as a waiting stop would hear. */
  acknowledged: string[];
  contexts: ContextStore;
  deliverer: ScriptedDeliverer;
  engine: FixedEngine;
  clock: Clock;
  turnJobs: { conversationId: string; generation: number; delayMs: number }[];
  clientLookups: string[];
  /** True while an attempt in flight is marked for the conversation. */
  attemptInFlight(conversationId?: string): Promise<boolean>;
  /** Records the customer message in the context (as the API does), then schedules its reply. */
  receive(
    msgId: string,
    options?: { conversationId?: string; receivedAtMs?: number; text?: string; sendUrl?: string },
  ): Promise<DueMessage>;
}

export const CONVERSATION = 'c_conversationOne';

/** The due message of a customer message of the harness's client (its conversation, send_url and bound account by default). */
export const dueOf = (
  message: ContextMessage,
  {
    conversationId = CONVERSATION,
    receivedAtMs = T0,
    sendUrl = SEND_URL,
  }: { conversationId?: string; receivedAtMs?: number; sendUrl?: string } = {},
): DueMessage => ({
  message,
  client: CLIENT_ID,
  conversationId,
  sendUrl,
  groupId: undefined,
  groupName: undefined,
  boundAccountId: BOUND,
  receivedAtMs,
});

export function createHarness(
  redis: Redis,
  overrides: {
    settings?: Partial<DeliverySettings>;
    timings?: Partial<TurnTimings>;
    findClient?: WorkerDeps['findClient'];
    contextMaxMessages?: number;
  } = {},
): Harness {
  const keys = createRedisKeys(uniquePrefix('replies'));
  const turns = createTurnStore({ redis, keys, timings: { ...TIMINGS, ...overrides.timings } });
  const deliveries = createDeliveryStore({ redis, keys, ttlS: RECORD_TTL_S, deadLetterTtlS: DEAD_LETTER_TTL_S, nowMs: () => clock.now });
  const aborts: Harness['aborts'] = [];
  const inFlight = new Map<string, AbortController>();
  const acknowledged: string[] = [];
  const attempts: AttemptRegistry = {
    ready: () => Promise.resolve(),
    register(conversationId) {
      const controller = new AbortController();
      inFlight.set(conversationId, controller);
      // Every abort is heard (the lost ones are tested with the real registry: lost-abort.test.ts).
      return {
        signal: controller.signal,
        heardThroughout: () => true,
        release: () => inFlight.get(conversationId) === controller && inFlight.delete(conversationId),
      };
    },
    acknowledge(_conversationId, deliveryId) {
      acknowledged.push(deliveryId);
      return Promise.resolve();
    },
    close: () => undefined,
  };
  const abortRequester: AbortRequester = {
    abort(conversationId, deliveryId) {
      aborts.push({ conversationId, deliveryId });
      inFlight.get(conversationId)?.abort();
      return Promise.resolve(true);
    },
    close: () => undefined,
  };
  const contexts = createContextStore({ redis, keys, maxMessages: overrides.contextMaxMessages ?? 50, ttlSeconds: 3600 });
  const deliverer = new ScriptedDeliverer();
  const engine = new FixedEngine();
  const clock: Clock = {
    now: T0,
    advance(ms) {
      this.now += ms;
    },
  };
  const turnJobs: Harness['turnJobs'] = [];
  const clientLookups: string[] = [];
  const ingressMetrics: unknown[][] = [];
  const replies = createAutoReplies({
    metrics: { pendingCancelled: (cause, count) => void ingressMetrics.push(['pendingCancelled', cause, count]) },
    turns,
    deliveries,
    jobs: { addTurn: () => Promise.resolve(), removeTurn: () => Promise.resolve() },
    aborts: abortRequester,
    settings: { debounceMs: 0, humanPauseMs: 0, abortWaitMs: 100 },
  });
  const deps: WorkerDeps = {
    turns: { ...turns, take: (c, g, _id, window) => turns.take(c, g, testDeliveryId(c, g), window) },
    deliveries,
    attemptStore: createAttemptStore({
      redis,
      keys,
      attemptMarkerTtlMs: turns.attemptMarkerTtlMs,
      recordTtlS: RECORD_TTL_S,
      deadLetterTtlS: DEAD_LETTER_TTL_S,
      context: { maxMessages: overrides.contextMaxMessages ?? 50, ttlMs: 3600_000 },
      take: { ...TIMINGS, ...overrides.timings },
    }),
    attempts,
    newDeliveryId: (c, g) => testDeliveryId(c, g ?? 0),
    contexts,
    engine,
    deliverer,
    findClient:
      overrides.findClient ??
      ((id) => {
        clientLookups.push(id);
        return Promise.resolve(id === CLIENT_ID ? CLIENT : undefined);
      }),
    jobs: {
      addTurn: (conversationId, generation, delayMs) => {
        turnJobs.push({ conversationId, generation, delayMs });
        return Promise.resolve();
      },
    },
    settings: { ...SETTINGS, ...overrides.settings },
    logger: createLogger({ level: 'error', service: 't', silent: true }),
    nowMs: () => clock.now,
    random: () => 0.5,
  };
  return {
    deps,
    keys,
    turns,
    deliveries,
    replies,
    ingressMetrics,
    aborts,
    inFlight,
    acknowledged,
    contexts,
    deliverer,
    engine,
    clock,
    turnJobs,
    clientLookups,
    attemptInFlight: async (conversationId = CONVERSATION) => (await redis.exists(keys.attemptsInFlight(conversationId))) === 1,
    async receive(msgId, options = {}) {
      const conversationId = options.conversationId ?? CONVERSATION;
      const receivedAtMs = options.receivedAtMs ?? clock.now;
      const message: ContextMessage = contextMessageFrom(
        {
          msg_id: msgId,
          from_user_id: CUSTOMER,
          to_user_id: BOUND,
          content: options.text ?? `question ${msgId}`,
          message_type: 1,
          event_type: 'auto_dialog',
          from_user_type: 2,
          create_timestamp: Math.floor(receivedAtMs / 1000),
        },
        msgId,
      );
      await contexts.record(conversationId, [message]);
      const due = dueOf(message, { conversationId, receivedAtMs, sendUrl: options.sendUrl ?? SEND_URL });
      const scheduled = await turns.schedule(due);
      if (scheduled.kind !== 'queued') throw new Error(`message ${msgId} was not queued: ${scheduled.kind}`);
      return due;
    },
  };
}
