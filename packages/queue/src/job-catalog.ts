/**
 * The one definition of queue and job names and their payloads, imported by the producer (API)
 * and the consumer (worker). Names are never renamed: a rename would strand queued jobs.
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

/** A handler per job name; a missing one is a compile error where the worker builds this map. */
export type JobHandlers<Job> = { [Name in JobName]: (job: Job, payload: JobPayloads[Name]) => Promise<void> };

export const turnJobId = (conversationId: string, generation: number): string => `${conversationId}-${generation}`;

/** Checks at start-up that every job name has exactly one handler (and nothing else is registered). */
export function assertCompleteCatalog(handlers: Record<string, unknown>): void {
  const expected = Object.values(JOB_NAMES).sort();
  const actual = Object.keys(handlers).sort();
  if (JSON.stringify(expected) !== JSON.stringify(actual)) {
    throw new Error(`job handlers ${actual.join(', ')} do not match the catalog ${expected.join(', ')}`);
  }
}
