import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * How often the event-loop delay monitor of the process metrics samples, in ms. prom-client's
 * default, 10 ms, wakes every process 100 times a second whatever its traffic: half of an idle
 * API's CPU (8 → 4 ms a second on a 2-core VM), and a wake-up per 5 messages at 500 messages/s,
 * where a wake-up alone costs about half what a Redis round trip costs the client (44 against 87 µs;
 * docs/design/performance-log.md, twentieth session). A stall of 100 ms or more is always seen; a
 * shorter one is seen in proportion to its length.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** prom-client's process metrics (CPU, memory, handles, GC, event loop lag) on `registry`, named `prefix…`. */
export function collectProcessMetrics(registry: Registry, prefix: string): void {
  collectDefaultMetrics({ register: registry, prefix, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}
