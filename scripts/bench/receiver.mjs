// The loopback receiver every delivery goes to: counts deliveries, records accept→delivered latency
// in an HDR histogram (µs), and answers /slow only after a pause (to have attempts in flight).
import { createServer } from 'node:http';
import hdr from 'hdr-histogram-js';

export const newHistogram = () =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });

export async function startReceiver() {
  const state = {
    received: 0,
    waiters: [],
    /** key → accept time (ms) or delivered time (ms), whichever comes first. */
    accepted: new Map(),
    delivered: new Map(),
    histogram: null,
    /** [accepted at, latency] (ms) of each message measured since measure(). */
    samples: [],
    /** conversation_id → arrival times (ms) of attempts on /slow. */
    slowArrivals: new Map(),
  };
  const settle = () => {
    state.waiters = state.waiters.filter((w) => (state.received >= w.count ? (w.resolve(), false) : true));
  };
  const latency = (key, acceptedAt, deliveredAt) => {
    state.histogram?.recordValue(Math.max(1, Math.round((deliveredAt - acceptedAt) * 1000)));
    state.samples.push([acceptedAt, deliveredAt - acceptedAt]);
    state.accepted.delete(key);
  };

  const server = createServer((req, res) => {
    const arrived = performance.now();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/slow') {
        const { conversation_id: conversation } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        state.slowArrivals.set(conversation, [...(state.slowArrivals.get(conversation) ?? []), arrived]);
        setTimeout(() => res.end('ok'), 400);
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const key = body.in_reply_to?.[0] ?? body.key;
      if (state.histogram && key !== undefined) {
        const acceptedAt = state.accepted.get(key);
        if (acceptedAt === undefined) state.delivered.set(key, arrived);
        else latency(key, acceptedAt, arrived);
      }
      state.received += 1;
      res.end('ok');
      settle();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    state,
    /** Resolves when `count` deliveries arrived in all, or rejects after `timeoutMs`. */
    until(count, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${state.received} of ${count} deliveries within ${timeoutMs} ms`)),
          timeoutMs,
        );
        state.waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
        settle();
      });
    },
    /** Starts a latency measurement; accept(key) marks the moment a message was accepted. */
    measure() {
      state.histogram = newHistogram();
      state.samples = [];
      state.accepted.clear();
      state.delivered.clear();
      return state.histogram;
    },
    /**
     * The latencies measured since measure(), by the second their message was accepted in (from the
     * first): [p50, p99] in ms each. Shows whether a run's tail comes from a start that the processes
     * take seconds to catch up with, or from all along (docs/design/performance-log.md, ninth session).
     */
    bySecond() {
      const seconds = [];
      // samples arrive in delivery order, not acceptance order; no spread: a long run has many
      const first = state.samples.reduce((min, [at]) => Math.min(min, at), Infinity);
      for (const [at, ms] of state.samples) (seconds[Math.floor((at - first) / 1000)] ??= []).push(ms);
      const at = (sorted, p) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] * 10) / 10;
      return Array.from(seconds, (values = []) => {
        const sorted = values.sort((a, b) => a - b);
        return sorted.length ? [at(sorted, 50), at(sorted, 99)] : [null, null];
      });
    },
    accept(key, at = performance.now()) {
      const deliveredAt = state.delivered.get(key);
      if (deliveredAt === undefined) state.accepted.set(key, at);
      else {
        state.delivered.delete(key);
        latency(key, at, deliveredAt);
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
