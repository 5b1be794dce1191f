/**
 * The one definition of queue and job names and their payloads, imported by the producer (API,
 * CLI) and the consumer (worker). Names are never renamed: a rename would strand queued jobs.
 */
export const QUEUE_NAMES = { replies: 'auto-replies' } as const;

export const JOB_NAMES = {
  /** Produce and deliver the next reply of one conversation (one job per conversation at a time). */
  conversationTurn: 'conversation-turn',
  /** Deliver again a dead-lettered reply, as the operator asked. */
  redeliver: 'redeliver',
} as const;

export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

export interface JobPayloads {
  'conversation-turn': { conversationId: string; generation: number };
  redeliver: { deliveryId: string };
}

/**
 * What the queue must do next with a job: it is finished, or it runs again at untilMs (not a failed
 * run). `lastError`: why it waits when a step failed and the handler retries it itself (a delivery
 * attempt), written where the queue dashboard shows it; ids, statuses and error codes only.
 */
export type JobDecision = { kind: 'done' } | { kind: 'wait'; untilMs: number; lastError?: string };

/** What the dispatcher writes to a job's progress (BullMQ) for a wait with a last error: the dashboard shows it. */
export interface WaitingProgress {
  last_error: string;
}

export const DONE: JobDecision = { kind: 'done' };

/**
 * One job's domain logic: `process` runs it; `failedForGood` decides what happens to the domain state
 * when the job has failed its last allowed attempt (docs/service-rules.md §15: a job never just sits in the failed set).
 */
export interface JobHandler<Name extends JobName> {
  // Properties, not methods: strictFunctionTypes then checks the payload type exactly.
  process: (payload: JobPayloads[Name]) => Promise<JobDecision>;
  failedForGood: (payload: JobPayloads[Name], error: Error) => Promise<void>;
}

/** A handler per job name: a missing one, or one with the wrong payload type, is a compile error. */
export type JobHandlers = { [Name in JobName]: JobHandler<Name> };

export const turnJobId = (conversationId: string, generation: number): string => `${conversationId}-${generation}`;

export const isJobName = (name: string): name is JobName => (Object.values(JOB_NAMES) as string[]).includes(name);

/** Checks at start-up that every job name has exactly one handler (and nothing else is registered). */
export function assertCompleteCatalog(handlers: Record<string, unknown>): void {
  const expected = Object.values(JOB_NAMES).sort();
  const actual = Object.keys(handlers).sort();
  if (JSON.stringify(expected) !== JSON.stringify(actual)) {
    throw new Error(`job handlers ${actual.join(', ')} do not match the catalog ${expected.join(', ')}`);
  }
}
