import { listDeadLetters, replayDeadLetter } from '@dialog-relay/auto-reply';
import type { DeliveryRecords } from '@dialog-relay/queue';
import type { Queue } from 'bullmq';

/** `dead-letters list [limit] | replay <delivery_id>`: failed replies with their attempt logs. */
export async function deadLettersCommand(
  deps: { deliveries: DeliveryRecords; queue: Queue; replyMaxAgeMs: number },
  args: readonly string[],
): Promise<string> {
  const [action, arg] = args;
  switch (action) {
    case 'list': {
      const limit = Number(arg ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('usage: dead-letters list [limit 1-1000]');
      const letters = await listDeadLetters(deps.deliveries, 0, limit);
      if (letters.length === 0) return '(no dead letters)';
      return letters.map(({ record, attempts }) => [
        `${record.delivery_id}\t${record.dead_reason}\tconversation=${record.conversation_id}\tclient=${record.client}\tsend_url=${record.send_url}\tin_reply_to=${record.in_reply_to.join(',')}`,
        ...attempts.map((a) => `  #${a.attempt} ${a.at} status=${a.status ?? '-'} ${a.latency_ms}ms ${a.error ?? ''}`),
      ].join('\n')).join('\n');
    }
    case 'replay': {
      if (!arg) throw new Error('usage: dead-letters replay <delivery_id>');
      const ok = await replayDeadLetter({ ...deps, nowMs: Date.now }, arg);
      return ok ? `queued ${arg} for redelivery` : `${arg} is not a dead letter`;
    }
    case undefined:
    default:
      throw new Error('usage: dead-letters list [limit] | replay <delivery_id>');
  }
}
