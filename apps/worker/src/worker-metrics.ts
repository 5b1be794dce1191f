import { boundChildren, collectProcessMetrics, createOldestWaitingGauge, createReplyCounter } from '@dialog-relay/process';
import type { ReplyMetrics } from '@dialog-relay/replies';
import type { CountReply } from '@dialog-relay/reply-engine';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds from a message's acceptance to its reply's delivery: debounce, engine, retries (deadline 15 min). */
const END_TO_END_BUCKETS = [0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 120, 300, 600, 900];
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

export interface WorkerMetrics {
  registry: Registry;
  /** The reply protocol's port, recorded into Prometheus metrics. */
  replies: ReplyMetrics;
  /** A job started or ended now. */
  jobActivity(): void;
  /** auto_dialog replies by engine and outcome (answered, handoff, error). */
  countReply: CountReply;
}

/**
 * Prometheus metrics of one worker replica, on a registry of its own. `oldestWaitingMs` is read at
 * scrape time: how long the oldest reply job that is due has waited for a worker.
 */
export function createWorkerMetrics(oldestWaitingMs: () => Promise<number>): WorkerMetrics {
  const registry = new Registry();
  collectProcessMetrics(registry, 'dialog_relay_worker_');
  const registers = [registry];
  const attempts = new Counter({
    name: 'dialog_relay_delivery_attempts_total',
    help: 'Delivery attempts by result (delivered, retry, dead, cancelled) and status class (2xx … 5xx, none)',
    labelNames: ['result', 'status_class'],
    registers,
  });
  const attemptDuration = new Histogram({
    name: 'dialog_relay_delivery_attempt_duration_seconds',
    help: 'Duration of one delivery attempt (POST to send_url)',
    labelNames: ['result'],
    buckets: CALL_BUCKETS,
    registers,
  });
  const endToEnd = new Histogram({
    name: 'dialog_relay_reply_accept_to_delivered_seconds',
    help: 'From the API accepting the newest message a reply answers to the receiver accepting the reply',
    buckets: END_TO_END_BUCKETS,
    registers,
  });
  const engine = new Histogram({
    name: 'dialog_relay_engine_duration_seconds',
    help: 'Reply engine calls by outcome (reply, empty, error)',
    labelNames: ['outcome'],
    buckets: CALL_BUCKETS,
    registers,
  });
  const turn = new Histogram({
    name: 'dialog_relay_turn_duration_seconds',
    help: 'One conversation turn, from its take to its end or its wait, by outcome (finished, waiting); a job that goes on to the next turn counts each',
    labelNames: ['outcome'],
    buckets: CALL_BUCKETS,
    registers,
  });
  const cancellations = new Counter({
    name: 'dialog_relay_reply_cancellations_total',
    help: 'Replies cancelled by a stop or a human, before their attempt or in flight',
    labelNames: ['when'],
    registers,
  });
  const abortLatency = new Histogram({
    name: 'dialog_relay_abort_latency_seconds',
    help: 'From the abort signal (stop_auto_reply, human reply) to the end of the aborted attempt',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const deadLetters = new Counter({
    name: 'dialog_relay_dead_letters_total',
    help: 'Replies that became dead letters, by reason',
    labelNames: ['reason'],
    registers,
  });
  const lastJob = new Gauge({
    name: 'dialog_relay_worker_last_job_timestamp_seconds',
    help: 'Unix time a job last started or ended on this worker',
    registers,
  });
  createOldestWaitingGauge(registry, () => oldestWaitingMs().catch(() => 0));
  const countReply = createReplyCounter(registry, 'auto_dialog');
  // Label children bound once per label set (the values are bounded): prom-client hashes a label object per call otherwise.
  const attemptsOf = boundChildren((key) => {
    const [result, statusClass] = key.split('\n');
    return attempts.labels({ result: result ?? '', status_class: statusClass ?? '' });
  });
  const attemptDurationOf = boundChildren((result) => attemptDuration.labels({ result }));
  const engineOf = boundChildren((outcome) => engine.labels({ outcome }));
  const turnOf = boundChildren((outcome) => turn.labels({ outcome }));
  return {
    registry,
    countReply,
    replies: {
      attempt: (result, statusClass, seconds) => {
        attemptsOf(`${result}\n${statusClass}`).inc();
        attemptDurationOf(result).observe(seconds);
      },
      delivered: (seconds) => endToEnd.observe(seconds),
      engine: (outcome, seconds) => engineOf(outcome).observe(seconds),
      turn: (outcome, seconds) => turnOf(outcome).observe(seconds),
      cancelled: (when) => cancellations.inc({ when }),
      abortLatency: (seconds) => abortLatency.observe(seconds),
      deadLetter: (reason) => deadLetters.inc({ reason }),
    },
    jobActivity: () => lastJob.set(Date.now() / 1000),
  };
}
