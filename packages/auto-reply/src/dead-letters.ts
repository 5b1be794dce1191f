import type { Queue } from 'bullmq';
import { JOB_NAMES, type DeliveryAttempt, type DeliveryRecord, type DeliveryRecords, type JobPayloads } from '@dialog-relay/queue';

export interface DeadLetter {
  record: DeliveryRecord;
  attempts: DeliveryAttempt[];
}

/** Dead letters with their attempt logs, newest first (CONTRACT §7). */
export async function listDeadLetters(deliveries: DeliveryRecords, offset = 0, limit = 50): Promise<DeadLetter[]> {
  const records = await deliveries.listDead(offset, limit);
  return Promise.all(records.map(async (record) => ({ record, attempts: await deliveries.attempts(record.delivery_id) })));
}

/**
 * Sends a dead letter again, with the same webhook-id and body, a fresh deadline and a fresh attempt
 * budget (its attempt log continues). Taking it off the dead list is atomic, so two operators cannot
 * both replay it; if the job cannot be queued it goes back on the list. A stopped conversation still
 * gets nothing (the attempt refuses to start).
 */
export async function replayDeadLetter(deps: { deliveries: DeliveryRecords; queue: Queue; replyMaxAgeMs: number; nowMs: () => number }, deliveryId: string): Promise<boolean> {
  const record = await deps.deliveries.get(deliveryId);
  if (!record || record.state !== 'dead') return false;
  const now = deps.nowMs();
  if (!(await deps.deliveries.revive(deliveryId, now + deps.replyMaxAgeMs))) return false;
  const payload: JobPayloads['redeliver'] = { deliveryId };
  try {
    await deps.queue.add(JOB_NAMES.redeliver, payload, { jobId: `redeliver-${deliveryId}-${now}` });
  } catch (error) {
    await deps.deliveries.bury(deliveryId, record.dead_reason || 'permanent', now);
    throw error;
  }
  return true;
}
