import { boundChildren, collectProcessMetrics, createOldestWaitingGauge, createReplyCounter } from '@dialog-relay/process';
import type { AutoReplyMetrics } from '@dialog-relay/replies';
import type { CountReply } from '@dialog-relay/reply-engine';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface ApiMetrics {
  registry: Registry;
  requests: Counter<'route' | 'status' | 'event_type'>;
  duration: Histogram<'route'>;
  /** Error answers by route and stable error code. */
  errors: Counter<'route' | 'error'>;
  /** From receiving a stop_auto_reply request to its 200 answer, in seconds. */
  stopLatency: Histogram;
  /** The ingress side of auto replies reports its cancellations here. */
  autoReplies: AutoReplyMetrics;
  /** assist_dialog and website_dialog replies by engine and outcome (answered, handoff, error). */
  countReply: CountReply;
  /** One answered request: `requests` and `duration` through label children bound once per label set (no label hashing per request). */
  observeRequest(route: string, status: number, eventType: string, seconds: number): void;
}

/** What the reply queue looks like right now (read at scrape time, shared by all replicas). */
export interface QueueSnapshot {
  jobs: Record<string, number>;
  deadLetters: number;
  /** Worker replicas connected to the reply queue. */
  workers: number;
  /** Reply jobs due and waiting for a worker (never those whose delay has not passed). */
  dueJobs: number;
  /** How long the oldest due reply job has waited for a worker, in ms (0: none waits). */
  oldestDueMs: number;
}

/** Prometheus metrics of one API process, on a registry of its own (not the global one). */
export function createApiMetrics(snapshot?: () => Promise<QueueSnapshot>): ApiMetrics {
  const registry = new Registry();
  collectProcessMetrics(registry, 'dialog_relay_api_');
  if (snapshot) {
    let latest: Promise<QueueSnapshot> | undefined;
    const read = (): Promise<QueueSnapshot> => (latest ??= snapshot().finally(() => (latest = undefined)));
    new Gauge({
      name: 'dialog_relay_queue_jobs',
      help: 'Reply jobs by state (all worker replicas)',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const { jobs } = await read();
        for (const [state, count] of Object.entries(jobs)) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'dialog_relay_dead_letters_stored',
      help: 'Replies kept in the dead-letter state now',
      registers: [registry],
      async collect() {
        this.set((await read()).deadLetters);
      },
    });
    // What a worker autoscaler reads (deploy/kubernetes/worker-scaledobject.yaml): here on the API,
    // which runs whatever the number of workers, even none.
    new Gauge({
      name: 'dialog_relay_queue_due_jobs',
      help: 'Reply jobs due and waiting for a worker (wait list, prioritized, due but not yet promoted; never those still in their delay)',
      registers: [registry],
      async collect() {
        this.set((await read()).dueJobs);
      },
    });
    createOldestWaitingGauge(registry, async () => (await read()).oldestDueMs);
    new Gauge({
      name: 'dialog_relay_queue_workers',
      help: 'Worker replicas connected to the reply queue',
      registers: [registry],
      async collect() {
        this.set((await read()).workers);
      },
    });
  }
  // The worker exposes the same family with when="before_attempt" | "in_flight" (it cannot tell a stop from a human).
  const cancellations = new Counter({
    name: 'dialog_relay_reply_cancellations_total',
    help: 'Replies cancelled by a stop or a human: here, those with no attempt in flight (when="pending"), by cause',
    labelNames: ['when', 'cause'],
    registers: [registry],
  });
  const countReply = createReplyCounter(registry, 'assist_dialog and website_dialog');
  const requests = new Counter({
    name: 'dialog_relay_http_requests_total',
    help: 'HTTP requests by route, status and event type',
    labelNames: ['route', 'status', 'event_type'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'dialog_relay_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const durationOf = boundChildren((route) => duration.labels({ route }));
  const requestsOf = boundChildren((key) => {
    const [route, status, eventType] = key.split('\n');
    return requests.labels({ route: route ?? '', status: status ?? '', event_type: eventType ?? '' });
  });
  return {
    registry,
    countReply,
    observeRequest: (route, status, eventType, seconds) => {
      durationOf(route).observe(seconds);
      requestsOf(`${route}\n${status}\n${eventType}`).inc();
    },
    stopLatency: new Histogram({
      name: 'dialog_relay_stop_latency_seconds',
      help: 'From the API receiving a stop_auto_reply request to its 200 answer (includes waiting for an aborted attempt in flight)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.8, 1, 2.5],
      registers: [registry],
    }),
    autoReplies: { pendingCancelled: (cause, replies) => cancellations.inc({ when: 'pending', cause }, replies) },
    requests,
    errors: new Counter({
      name: 'dialog_relay_http_errors_total',
      help: 'Error answers by route and error code',
      labelNames: ['route', 'error'],
      registers: [registry],
    }),
    duration,
  };
}
