import { Socket } from 'node:net';
import { Cluster, type Redis as SingleRedis } from 'ioredis';

/**
 * ioredis writes every command to its socket at once: one `write` system call a command. On
 * loopback a write also runs the receiving side of TCP, so on the API under load the Redis writes
 * were a fifth of all its CPU (docs/design/performance-log.md, fourteenth session). A coalesced
 * connection's socket corks at the first write of an event-loop turn and uncorks in that turn's
 * check phase (setImmediate): the commands of every request that the poll phase ran go out in one
 * `writev`, and Redis answers them in one read. Nothing waits for a timer: an immediate is due
 * before the loop polls again, and a pending one keeps the poll from blocking. Unlike ioredis's
 * auto-pipelining, no Pipeline object is built per batch (redis-connection.ts, `autoPipelining`, says
 * why those cost).
 */
type WriteMethod = (this: Socket, chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with the socket as `this` below
const socketWrite = Socket.prototype.write as WriteMethod;

function uncork(socket: Socket): void {
  socket.uncork();
}

/** Socket#write that corks at the first write of a turn; the turn's check phase uncorks (one writev). */
const coalescingWrite: WriteMethod = function (chunk, encoding, callback) {
  if (this.writableCorked === 0) {
    this.cork();
    setImmediate(uncork, this);
  }
  return socketWrite.call(this, chunk, encoding, callback);
};

function coalesceStreamOf(redis: SingleRedis): void {
  // ioredis's socket of the current connection (a TLSSocket is a Socket too); a new one per reconnection.
  const stream = (redis as unknown as { stream?: unknown }).stream;
  if (stream instanceof Socket && stream.write !== coalescingWrite) stream.write = coalescingWrite;
}

function coalesceNode(redis: SingleRedis): void {
  coalesceStreamOf(redis);
  redis.on('connect', () => coalesceStreamOf(redis));
}

/** Makes `redis` coalesce the writes of each event-loop turn, on every socket it (re)connects, a cluster's nodes included. */
export function coalesceWrites(redis: SingleRedis | Cluster): void {
  if (redis instanceof Cluster) {
    redis.on('+node', coalesceNode);
    for (const node of redis.nodes()) coalesceNode(node);
  } else coalesceNode(redis);
}
