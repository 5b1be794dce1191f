import type { DueMessage } from '@dialog-relay/chat';
import { parseClientRecord, type ClientSettings } from '@dialog-relay/config';
import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';
import { contextMessageFrom, createContextStore, type ContextStore } from '@dialog-relay/conversations';
import type { AttemptOutcome, Deliverer, DeliveryRequest } from '@dialog-relay/delivery';
import { createLogger } from '@dialog-relay/logger';
import { createConversationTurns, createDeliveryRecords, type ConversationTurns, type DeliveryRecords } from '@dialog-relay/queue';
import { createRedisKeys, type Redis, type RedisKeys } from '@dialog-relay/redis';
import type { ReplyEngine, ReplyRequest } from '@dialog-relay/reply-engine';
import { uniquePrefix } from '@dialog-relay/testkit';
import type { DeliverySettings, WorkerDeps } from '../src/index.js';

/** A fixed start time for the controllable clock (the worker's clock; Redis keeps its own). */
export const T0 = 1_700_000_000_000;

export const CLIENT_ID = 'shop';
export const WEBHOOK_SECRET = 'whsec_' + Buffer.from('webhook-key-of-the-shop').toString('base64');
export const CLIENT: ClientSettings = parseClientRecord(CLIENT_ID, { secret: 'request-secret', webhook_secret: WEBHOOK_SECRET }, 10);

export const SEND_URL = 'https://receiver.example/hooks';
export const BOUND = 'bound-account';
export const CUSTOMER = 'customer-1';

export const SETTINGS: DeliverySettings = {
  debounceMs: 0,
  maxAttempts: 3,
  backoffMs: 1000,
  maxBackoffMs: 8000,
  timeoutMs: 2000,
  replyMaxAgeMs: 60_000,
};

/** Outcomes as the real Deliverer reports them. */
export const outcome = {
  delivered: (status = 200): AttemptOutcome => ({ kind: 'delivered', status, error: null, latencyMs: 12, retryAfterMs: null, responseBody: 'ok' }),
  retry: (status = 503, retryAfterMs: number | null = null): AttemptOutcome => ({ kind: 'retry', status, error: null, latencyMs: 20, retryAfterMs, responseBody: 'busy' }),
  permanent: (status = 400): AttemptOutcome => ({ kind: 'permanent', status, error: null, latencyMs: 8, retryAfterMs: null, responseBody: 'bad request' }),
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
  readonly contextWindow = 50;
  readonly name = 'fixed';
  readonly calls: ReplyRequest[] = [];
  during: ((request: ReplyRequest) => Promise<void>) | undefined;
  constructor(public parts: ReplyPart[] = [{ type: 'text', content: 'We open at nine.' }]) {}
  async reply(request: ReplyRequest): Promise<ReplyPart[]> {
    this.calls.push(request);
    if (this.during) await this.during(request);
    return this.parts.map((p) => ({ ...p }));
  }
}

export interface Clock {
  now: number;
  advance(ms: number): void;
}

export interface Harness {
  deps: WorkerDeps;
  keys: RedisKeys;
  turns: ConversationTurns;
  deliveries: DeliveryRecords;
  contexts: ContextStore;
  deliverer: ScriptedDeliverer;
  engine: FixedEngine;
  clock: Clock;
  turnJobs: { conversationId: string; generation: number; delayMs: number }[];
  clientLookups: string[];
  /** Records the customer message in the context (as the API does), then schedules its reply. */
  receive(msgId: string, options?: { conversationId?: string; receivedAtMs?: number; text?: string }): Promise<DueMessage>;
}

export const CONVERSATION = 'c_conversationOne';

export function createHarness(redis: Redis, overrides: { settings?: Partial<DeliverySettings>; findClient?: WorkerDeps['findClient'] } = {}): Harness {
  const keys = createRedisKeys(uniquePrefix('auto-reply'));
  const turns = createConversationTurns({ redis, keys, pendingTtlMs: 3_600_000 });
  const deliveries = createDeliveryRecords({ redis, keys, ttlS: 3600 });
  const contexts = createContextStore({ redis, keys, maxMessages: 50, ttlSeconds: 3600 });
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
  const deps: WorkerDeps = {
    turns,
    deliveries,
    contexts,
    engine,
    deliverer,
    findClient: overrides.findClient ?? ((id) => {
      clientLookups.push(id);
      return Promise.resolve(id === CLIENT_ID ? CLIENT : undefined);
    }),
    addTurnJob: (conversationId, generation, delayMs) => {
      turnJobs.push({ conversationId, generation, delayMs });
      return Promise.resolve();
    },
    settings: { ...SETTINGS, ...overrides.settings },
    logger: createLogger({ level: 'error', service: 't', silent: true }),
    nowMs: () => clock.now,
    random: () => 0.5,
  };
  return {
    deps, keys, turns, deliveries, contexts, deliverer, engine, clock, turnJobs, clientLookups,
    async receive(msgId, options = {}) {
      const conversationId = options.conversationId ?? CONVERSATION;
      const receivedAtMs = options.receivedAtMs ?? clock.now;
      const message: ContextMessage = contextMessageFrom({
        msg_id: msgId, from_user_id: CUSTOMER, to_user_id: BOUND, content: options.text ?? `question ${msgId}`,
        message_type: 1, event_type: 'auto_dialog', from_user_type: 2, create_timestamp: Math.floor(receivedAtMs / 1000),
      }, msgId);
      await contexts.record(conversationId, [message]);
      const due: DueMessage = {
        client: CLIENT_ID, conversationId, msgId, sendUrl: SEND_URL, groupId: undefined, groupName: undefined,
        customerId: CUSTOMER, boundAccountId: BOUND, receivedAtMs,
      };
      const scheduled = await turns.schedule(due);
      if (scheduled.kind !== 'queued') throw new Error(`message ${msgId} was not queued: ${scheduled.kind}`);
      return due;
    },
  };
}
