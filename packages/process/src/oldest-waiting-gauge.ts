import { Gauge, type Registry } from 'prom-client';

/**
 * `dialog_relay_oldest_waiting_reply_age_seconds`, which the API (for an autoscaler, whatever the
 * number of workers) and each worker both expose: `readMs` is read at scrape time, in milliseconds.
 */
export function createOldestWaitingGauge(registry: Registry, readMs: () => Promise<number>): void {
  new Gauge({
    name: 'dialog_relay_oldest_waiting_reply_age_seconds',
    help: 'How long the oldest due reply job has waited for a worker (0: none waits)',
    registers: [registry],
    async collect() {
      this.set((await readMs()) / 1000);
    },
  });
}
