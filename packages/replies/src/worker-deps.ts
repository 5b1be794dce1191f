import type { ClientSettings } from '@dialog-relay/config';
import type { ContextStore } from '@dialog-relay/conversations';
import type { Deliverer } from '@dialog-relay/delivery';
import type { Logger } from '@dialog-relay/logger';
import type { JobProducer } from '@dialog-relay/queue';
import type { ReplyEngine } from '@dialog-relay/reply-engine';
import type { AttemptRegistry } from './attempt-aborts.js';
import type { AttemptStore } from './attempt.store.js';
import type { DeliveryStore } from './delivery.store.js';
import type { ReplyMetrics } from './reply-metrics.js';
import type { TurnStore } from './turn.store.js';

export interface DeliverySettings {
  maxAttempts: number;
  /** First retry delay; doubles per failed attempt, with full jitter. */
  backoffMs: number;
  maxBackoffMs: number;
  timeoutMs: number;
  /** A reply older than this (from the newest message it answers) is stale: dead-lettered, not delivered. */
  replyMaxAgeMs: number;
  /** HANDOFF_PAUSE_S in ms: how long a turn that ends with a handoff pauses the conversation's bot replies (default 0). */
  handoffPauseMs?: number;
}

/** Everything the worker's domain logic needs, passed explicitly. */
export interface WorkerDeps {
  turns: TurnStore;
  deliveries: DeliveryStore;
  /** The steps around an attempt that write the turn, the record and the context together. */
  attemptStore: AttemptStore;
  contexts: ContextStore;
  engine: ReplyEngine;
  deliverer: Deliverer;
  attempts: AttemptRegistry;
  findClient: (id: string) => Promise<ClientSettings | undefined>;
  jobs: Pick<JobProducer, 'addTurn'>;
  settings: DeliverySettings;
  logger: Logger;
  nowMs: () => number;
  /** A new delivery id for a reply in this conversation (in its shard); the generation is the turn's (tests name ids by it). */
  newDeliveryId: (conversationId: string, generation?: number) => string;
  random?: () => number;
  /** Aborts when the worker drains: a reply being produced is handed back, not waited for (docs/service-rules.md §12). */
  stopping?: AbortSignal;
  /** Operator metrics (default: none recorded). */
  metrics?: ReplyMetrics;
  /** How many turns one job may serve in a row (default TURNS_PER_JOB, process-turn.ts); 1: a job per turn. */
  turnsPerJob?: number;
}
