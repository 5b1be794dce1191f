import { SEND_URL_FORBIDDEN } from '@dialog-relay/net-guard';
import { PostTimeoutError } from './post-answer.js';

/** What a failed attempt means for the retry loop, with its short reason. */
export interface ErrorVerdict {
  kind: 'retry' | 'permanent';
  error: string;
}

/**
 * Time-outs are 'timeout', a refusal by the connect-time address guard is a permanent
 * 'send_url_forbidden: <reason>', any other failure is retried under its error code
 * (ECONNREFUSED, ECONNRESET, ENOTFOUND, ...), found along the error's `cause` chain.
 */
export function describeAttemptError(err: unknown): ErrorVerdict {
  if (err instanceof PostTimeoutError || nameOf(err) === 'TimeoutError') return { kind: 'retry', error: 'timeout' };
  const chain = causeChain(err);
  const forbidden = chain.find((link) => codeOf(link) === SEND_URL_FORBIDDEN);
  if (forbidden !== undefined) {
    const reason = chain.map(reasonOf).find((value) => value !== undefined) ?? 'forbidden';
    return { kind: 'permanent', error: `send_url_forbidden: ${reason}` };
  }
  const code = chain.map(codeOf).find((value) => value !== undefined);
  return { kind: 'retry', error: code ?? 'request_error' };
}

function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let link = err;
  while (link !== undefined && link !== null && chain.length < 5 && !chain.includes(link)) {
    chain.push(link);
    link = link instanceof Error ? link.cause : undefined;
  }
  return chain;
}

function stringField(value: unknown, field: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found: unknown = (value as Record<string, unknown>)[field];
  return typeof found === 'string' && found !== '' ? found : undefined;
}

const codeOf = (value: unknown): string | undefined => stringField(value, 'code');
const reasonOf = (value: unknown): string | undefined => stringField(value, 'reason');
const nameOf = (value: unknown): string | undefined => stringField(value, 'name');
