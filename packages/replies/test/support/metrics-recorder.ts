import type { ReplyMetrics } from '../internals.js';

/** A metrics port that keeps every call, in order, as [name, ...arguments]. */
export function recordMetrics(): { metrics: ReplyMetrics; calls: unknown[][] } {
  const calls: unknown[][] = [];
  const keep =
    (name: string) =>
    (...args: unknown[]): void =>
      void calls.push([name, ...args]);
  return {
    calls,
    metrics: {
      attempt: keep('attempt'),
      delivered: keep('delivered'),
      engine: keep('engine'),
      turn: keep('turn'),
      cancelled: keep('cancelled'),
      abortLatency: keep('abortLatency'),
      deadLetter: keep('deadLetter'),
    },
  };
}
