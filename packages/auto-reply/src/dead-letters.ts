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
 * Sends a dead letter again, with the same webhook-id and body and a fresh deadline. Its attempt
 * log continues. A stopped conversation still gets nothing (the attempt refuses to start).
 */
export async function replayDeadLetter(deps: { deliveries: DeliveryRecords; queue: Queue; replyMaxAgeMs: number; nowMs: () => number }, deliveryId: string): Promise<boolean> {
  const record = await deps.deliveries.get(deliveryId);
  if (!record || record.state !== 'dead') return false;
  if (!(await deps.deliveries.removeFromDead(deliveryId))) return false;
  const now = deps.nowMs();
  await deps.deliveries.setState(deliveryId, 'pending', { deadline_ms: now + deps.replyMaxAgeMs });
  const payload: JobPayloads['redeliver'] = { deliveryId };
  await deps.queue.add(JOB_NAMES.redeliver, payload, { jobId: `redeliver-${deliveryId}-${now}` });
  return true;
}
