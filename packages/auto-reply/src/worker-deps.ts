import type { ClientSettings } from '@dialog-relay/config';
import type { ContextStore } from '@dialog-relay/conversations';
import type { Deliverer } from '@dialog-relay/delivery';
import type { Logger } from '@dialog-relay/logger';
import type { ConversationTurns, DeliveryRecords } from '@dialog-relay/queue';
import type { ReplyEngine } from '@dialog-relay/reply-engine';

export interface DeliverySettings {
  debounceMs: number;
  maxAttempts: number;
  /** First retry delay; doubles per failed attempt, with full jitter. */
  backoffMs: number;
  maxBackoffMs: number;
  timeoutMs: number;
  /** A reply older than this (from the newest message it answers) is stale: dead-lettered, not delivered. */
  replyMaxAgeMs: number;
}

/** Everything the worker's domain logic needs, passed explicitly. */
export interface WorkerDeps {
  turns: ConversationTurns;
  deliveries: DeliveryRecords;
  contexts: ContextStore;
  engine: ReplyEngine;
  deliverer: Deliverer;
  findClient: (id: string) => Promise<ClientSettings | undefined>;
  /** Adds the conversation's turn job `generation` (idempotent by job id). */
  addTurnJob: (conversationId: string, generation: number, delayMs: number) => Promise<void>;
  settings: DeliverySettings;
  logger: Logger;
  nowMs: () => number;
  random?: () => number;
}

/** What the job runner must do next with the job: it is finished, or it runs again at untilMs. */
export type JobDecision = { kind: 'done' } | { kind: 'wait'; untilMs: number };

export const DONE: JobDecision = { kind: 'done' };
