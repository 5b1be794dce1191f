import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Registry } from 'prom-client';
import { collectProcessMetrics } from '../src/process-metrics.js';

const run = promisify(execFile);
const helper = new URL('../src/process-metrics.js', import.meta.url).href;

/**
 * Times the main thread of a process that has collected the process metrics went to sleep and was
 * woken in one idle second (its voluntary context switches, from Linux's /proc: one per wait of the event loop).
 */
async function idleWakeUps(): Promise<number> {
  const source = `
    import { readFileSync } from 'node:fs';
    import { Registry } from 'prom-client';
    import { collectProcessMetrics } from ${JSON.stringify(helper)};
    collectProcessMetrics(new Registry(), 'idle_');
    const switches = () => Number(/voluntary_ctxt_switches:\\s+(\\d+)/.exec(readFileSync('/proc/self/task/' + process.pid + '/status', 'utf8'))[1]);
    setTimeout(() => {
      const before = switches();
      setTimeout(() => { process.stdout.write(String(switches() - before)); process.exit(0); }, 1000);
    }, 300);
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source], {
    cwd: new URL('.', import.meta.url),
    timeout: 20_000,
  });
  return Number(stdout);
}

describe('process metrics', () => {
  it('report the event loop lag, CPU and memory under the process prefix', async () => {
    const registry = new Registry();
    collectProcessMetrics(registry, 'dialog_relay_test_');
    const names = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names).to.include.members([
      'dialog_relay_test_nodejs_eventloop_lag_p99_seconds',
      'dialog_relay_test_process_cpu_seconds_total',
      'dialog_relay_test_process_resident_memory_bytes',
    ]);
  });

  it('do not wake an idle process 100 times a second (the event loop is sampled every 100 ms)', async () => {
    // prom-client's own 10 ms woke it about 100 times in the second; 100 ms about 10 (a loaded machine may add a few)
    expect(await idleWakeUps()).to.be.below(40);
  });
});
