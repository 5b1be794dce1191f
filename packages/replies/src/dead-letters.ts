import type { JobProducer } from '@dialog-relay/queue';
import { JOB_NAMES } from '@dialog-relay/queue';
import type { DeliveryStore } from './delivery.store.js';
import type { DeliveryAttempt, DeliveryRecord } from './reply.types.js';

export interface DeadLetter {
  record: DeliveryRecord;
  attempts: DeliveryAttempt[];
}

/** Dead letters with their attempt logs (receiver answers included), newest first (docs/service-rules.md §7). */
export async function listDeadLetters(deliveries: DeliveryStore, offset = 0, limit = 50): Promise<DeadLetter[]> {
  const records = await deliveries.listDead(offset, limit);
  return Promise.all(records.map(async (record) => ({ record, attempts: await deliveries.attempts(record.delivery_id) })));
}

export type ReplayResult = 'queued' | 'not_dead' | 'never_produced';

/** What a replay reads and writes: the delivery records, the job producer and its shard, the fresh deadline, the clock. */
export interface ReplayDeps {
  deliveries: DeliveryStore;
  jobs: Pick<JobProducer, 'add'>;
  shardOfDelivery: (deliveryId: string) => number;
  replyMaxAgeMs: number;
  nowMs: () => number;
}

/**
 * Sends a dead letter again, with the same webhook-id and body, a fresh deadline and a fresh attempt
 * budget (its attempt log continues). Taking it off the dead list is atomic, so two operators cannot
 * both replay it; if the job cannot be queued it goes back on the list. A stopped conversation still
 * gets nothing (the attempt refuses to start). A reply that was never produced (its turn failed
 * before the engine answered) has no body to send and is refused.
 */
export async function replayDeadLetter(deps: ReplayDeps, deliveryId: string): Promise<ReplayResult> {
  const record = await deps.deliveries.get(deliveryId);
  if (!record || record.state !== 'dead') return 'not_dead';
  if (record.payload === '') return 'never_produced';
  const now = deps.nowMs();
  if (!(await deps.deliveries.revive(deliveryId, now + deps.replyMaxAgeMs))) return 'not_dead';
  try {
    await deps.jobs.add(
      JOB_NAMES.redeliver,
      { deliveryId },
      { jobId: `redeliver-${deliveryId}-${now}`, shard: deps.shardOfDelivery(deliveryId) },
    );
  } catch (error) {
    await deps.deliveries.bury(deliveryId, record.dead_reason || 'failed', record.dead_detail, now);
    throw error;
  }
  return 'queued';
}
