import { listDeadLetters, replayDeadLetter, type ReplayDeps } from '@dialog-relay/replies';
import { output, UsageError, type Output } from '../output.js';

/** A receiver's answer on one line: JSON-quoted (no raw newlines or control characters), cut to 300 characters. */
const answerLine = (body: string | null): string =>
  body === null || body === '' ? '' : ` answer=${JSON.stringify(body.length > 300 ? `${body.slice(0, 300)}…` : body)}`;

/** `dead-letters list [limit] | replay <delivery_id>`: failed replies with their reason, attempts and the receiver's answers. */
export async function deadLettersCommand(deps: Omit<ReplayDeps, 'nowMs'>, args: readonly string[]): Promise<Output> {
  const [action, arg] = args;
  switch (action) {
    case 'list': {
      const limit = Number(arg ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('usage: dead-letters list [limit 1-1000]');
      const letters = await listDeadLetters(deps.deliveries, 0, limit);
      const json = { dead_letters: letters.map(({ record, attempts }) => ({ ...withoutPayload(record), attempts })) };
      if (letters.length === 0) return output('(no dead letters)', json);
      return output(
        letters
          .map(({ record, attempts }) =>
            [
              `${record.delivery_id}\treason=${record.dead_reason || 'failed'}\tconversation=${record.conversation_id}\tclient=${record.client}\tsend_url=${record.send_url}\tin_reply_to=${record.in_reply_to.join(',')}`,
              ...(record.dead_detail ? [`  detail: ${record.dead_detail}`] : []),
              ...(attempts.length === 0 ? ['  (no delivery attempt was made)'] : []),
              ...attempts.map(
                (a) => `  #${a.attempt} ${a.at} status=${a.status ?? '-'} ${a.latency_ms}ms ${a.error ?? ''}${answerLine(a.response_body)}`,
              ),
            ].join('\n'),
          )
          .join('\n'),
        json,
      );
    }
    case 'replay': {
      if (!arg) throw new UsageError('usage: dead-letters replay <delivery_id>');
      const result = await replayDeadLetter({ ...deps, nowMs: Date.now }, arg);
      switch (result) {
        case 'queued':
          return output(`queued ${arg} for redelivery`, { queued: arg });
        case 'never_produced':
          throw new Error(`${arg} was never produced (its turn failed before the engine answered): there is no reply to send`);
        case 'not_dead':
          throw new Error(`${arg} is not a dead letter`);
      }
    }
    // falls through: TypeScript sees every result handled above
    case undefined:
    default:
      throw new UsageError('usage: dead-letters list [limit] | replay <delivery_id>');
  }
}

/** A delivery record without the body it POSTs (long, and shown by `deliveries show`). */
export function withoutPayload<T extends { payload: string; reply_content: string }>(record: T): Omit<T, 'payload' | 'reply_content'> {
  const rest: Omit<T, 'payload' | 'reply_content'> & Partial<Pick<T, 'payload' | 'reply_content'>> = { ...record };
  delete rest.payload;
  delete rest.reply_content;
  return rest;
}
