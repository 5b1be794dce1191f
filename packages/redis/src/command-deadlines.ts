import { Cluster, type Redis as SingleRedis } from 'ioredis';

/** What the sweep reads of a command ioredis holds: whether it has settled, and how to fail it. */
interface HeldCommand {
  isSettled: boolean;
  reject(error: Error): void;
}

/** ioredis's queues (denque): sent and unanswered, waiting for the connection, kept across a reconnection. */
interface CommandQueue {
  readonly length: number;
  peekAt(index: number): { command: HeldCommand } | undefined;
}

interface ConnectionQueues {
  commandQueue?: CommandQueue;
  offlineQueue?: CommandQueue;
  prevCommandQueue?: CommandQueue | null;
}

/** ioredis's own message, which callers (redis-errors.ts) already read as "Redis is unavailable". */
const COMMAND_TIMED_OUT = 'Command timed out';

/**
 * ioredis's `commandTimeout` arms a timer for every command and clears it at the answer (deleting a
 * field, which also turns each Command into a dictionary): 1-2 µs of the API's CPU a command
 * (docs/design/performance-log.md, eighteenth session). A request connection keeps the same bound
 * with one timer: every `timeoutMs / 8` (at least 10 ms) it looks through the commands ioredis still
 * holds for the connection (sent and unanswered, queued, or kept across a reconnection), remembers
 * when it first saw each, and fails one it saw `timeoutMs` ago or more with ioredis's own error. A
 * command is thus failed between `timeoutMs` and `timeoutMs` plus two intervals after it was sent;
 * an answer that comes later finds it settled, as with ioredis's timer. The timer stops when the
 * connection ends. Nothing is done per command.
 */
export function enforceCommandDeadlines(redis: SingleRedis | Cluster, timeoutMs: number): void {
  // Where a connection does not hold its commands as this ioredis does, ioredis's own timer per command bounds them.
  const ownTimersWhereUnknown = (connection: SingleRedis): void => {
    if (typeof (connection as unknown as ConnectionQueues).commandQueue?.peekAt !== 'function')
      connection.options.commandTimeout = timeoutMs;
  };
  if (redis instanceof Cluster) {
    redis.on('+node', ownTimersWhereUnknown);
    for (const node of redis.nodes('all')) ownTimersWhereUnknown(node);
  } else ownTimersWhereUnknown(redis);
  const firstSeen = new WeakMap<HeldCommand, number>();
  // a cluster's nodes change with its topology; one server is its own list
  const single: readonly SingleRedis[] = redis instanceof Cluster ? [] : [redis];
  const connections = (): readonly SingleRedis[] => (redis instanceof Cluster ? redis.nodes('all') : single);
  const sweepQueue = (queue: CommandQueue | null | undefined, now: number): void => {
    if (!queue) return;
    for (let i = 0; i < queue.length; i++) {
      const command = queue.peekAt(i)?.command;
      if (command === undefined || command.isSettled) continue;
      const seen = firstSeen.get(command);
      if (seen === undefined) firstSeen.set(command, now);
      else if (now - seen >= timeoutMs) command.reject(new Error(COMMAND_TIMED_OUT));
    }
  };
  const sweep = (): void => {
    const now = performance.now();
    for (const connection of connections()) {
      const queues = connection as unknown as ConnectionQueues;
      sweepQueue(queues.commandQueue, now);
      sweepQueue(queues.offlineQueue, now);
      sweepQueue(queues.prevCommandQueue, now);
    }
  };
  const timer = setInterval(sweep, Math.max(10, Math.floor(timeoutMs / 8)));
  timer.unref();
  redis.once('end', () => clearInterval(timer));
}
