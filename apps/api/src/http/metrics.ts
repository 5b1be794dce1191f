import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ApiMetrics {
  registry: Registry;
  requests: Counter<'route' | 'status' | 'event_type'>;
  duration: Histogram<'route'>;
}

/** What the reply queue looks like right now (read at scrape time, shared by all replicas). */
export interface QueueSnapshot {
  jobs: Record<string, number>;
  deadLetters: number;
}

/** Prometheus metrics of one API process, on a registry of its own (not the global one). */
export function createApiMetrics(snapshot?: () => Promise<QueueSnapshot>): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'dialog_relay_api_' });
  if (snapshot) {
    let latest: Promise<QueueSnapshot> | undefined;
    const read = (): Promise<QueueSnapshot> => (latest ??= snapshot().finally(() => (latest = undefined)));
    new Gauge({
      name: 'dialog_relay_queue_jobs', help: 'Reply jobs by state (all worker replicas)', labelNames: ['state'], registers: [registry],
      async collect() {
        const { jobs } = await read();
        for (const [state, count] of Object.entries(jobs)) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'dialog_relay_dead_letters', help: 'Replies in the dead-letter state', registers: [registry],
      async collect() {
        this.set((await read()).deadLetters);
      },
    });
  }
  return {
    registry,
    requests: new Counter({ name: 'dialog_relay_http_requests_total', help: 'HTTP requests by route, status and event type', labelNames: ['route', 'status', 'event_type'], registers: [registry] }),
    duration: new Histogram({ name: 'dialog_relay_http_request_duration_seconds', help: 'HTTP request duration', labelNames: ['route'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry] }),
  };
}
