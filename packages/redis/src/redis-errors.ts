/**
 * True when an error means "Redis cannot serve us right now" (connection down, time-out, server
 * loading, out of memory under noeviction, read-only replica, too few replicas confirmed a write, a
 * command aborted by its connection closing, a cluster that kept redirecting a command while a
 * master was down or moving): the API answers 503 with Retry-After
 * for these, never 500.
 */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const message = error.message;
  // Fewer replicas than REDIS_WAIT_REPLICAS hold the writes: acknowledging would risk losing them.
  if (error.name === 'MaxRetriesPerRequestError' || error.name === 'ReplicationLagError' || error.name === 'MasterChangedError')
    return true;
  // ioredis rejects the commands still waiting on a connection that closes (e.g. a WAIT when the master dies).
  if (error.name === 'AbortError' && /connection close/i.test(message)) return true;
  if (
    /Stream isn't writeable|Connection is closed|Command timed out|connect ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Socket closed|isn't ready|not ready after|Failed to refresh slots cache|None of startup nodes is available|^Too many Cluster redirections/i.test(
      message,
    )
  ) {
    return true;
  }
  // UNBLOCKED: a blocking command (WAIT, a BullMQ pop) was cut short because the master turned replica in a failover.
  return error.name === 'ReplyError' && /^(LOADING|OOM|BUSY|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|UNBLOCKED)\b/.test(message);
}
