/**
 * True when an error means "Redis cannot serve us right now" (connection down, time-out, server
 * loading, out of memory under noeviction, read-only replica): the API answers 503 with Retry-After
 * for these, never 500.
 */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const message = error.message;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  if (/Stream isn't writeable|Connection is closed|Command timed out|connect ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Socket closed/i.test(message)) {
    return true;
  }
  return error.name === 'ReplyError' && /^(LOADING|OOM|BUSY|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)\b/.test(message);
}
