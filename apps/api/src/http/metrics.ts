import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ApiMetrics {
  registry: Registry;
  requests: Counter<'route' | 'status' | 'event_type'>;
  duration: Histogram<'route'>;
}

/** Prometheus metrics of one API process, on a registry of its own (not the global one). */
export function createApiMetrics(): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'dialog_relay_api_' });
  return {
    registry,
    requests: new Counter({ name: 'dialog_relay_http_requests_total', help: 'HTTP requests by route, status and event type', labelNames: ['route', 'status', 'event_type'], registers: [registry] }),
    duration: new Histogram({ name: 'dialog_relay_http_request_duration_seconds', help: 'HTTP request duration', labelNames: ['route'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry] }),
  };
}
