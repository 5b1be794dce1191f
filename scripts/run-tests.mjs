// Runs every workspace's compiled tests with mocha (configuration in .mocharc.json), then the
// end-to-end suites that matter for scale-out again on a private 3-master Redis Cluster
// (.mocharc.cluster.json, TEST_REDIS_TOPOLOGY=cluster) and behind a private Sentinel
// (.mocharc.sentinel.json, TEST_REDIS_TOPOLOGY=sentinel). Missing system programs (redis-server,
// redis-cli, chromium) are installed first when it runs as root, else named. On a Node other than 24
// it re-runs itself under Node 24 (scripts/node-runtime.mjs). Extra arguments go to mocha and skip the
// cluster pass, e.g. `npm test -- --grep replay`. Ends with one line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode } from './node-runtime.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

// The tests run on Node 24, the runtime the image ships, whatever Node started npm test.
await ensureNode('shipped', (line) => process.stdout.write(`[dialog-relay] ${line}\n`));

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mocha = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const extra = process.argv.slice(2);

if (!ensureSystemPackages((line) => process.stdout.write(`[dialog-relay] ${line}\n`))) {
  process.stdout.write('\n0 passed, 1 failed\n');
  process.exit(1);
}

function pass(label, args, env) {
  process.stdout.write(`\n[dialog-relay] test pass: ${label}\n`);
  const result = spawnSync(process.execPath, [mocha, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  const output = result.stdout?.toString() ?? '';
  process.stdout.write(output);
  const count = (word) =>
    Number(
      /^\s+(\d+) (?:passing|failing)/m.test(output) ? ([...output.matchAll(new RegExp(`^\\s+(\\d+) ${word}`, 'gm'))].pop()?.[1] ?? 0) : 0,
    );
  const failed = count('failing') || (result.status === 0 ? 0 : 1);
  return { label, passed: count('passing'), failed, failures: failureSummary(output, result) };
}

/** Mocha's failure report of one pass, cut short: what CI shows of a run is its tail, so the end repeats it. */
function failureSummary(output, result) {
  const at = output.search(/^\s+\d+ failing/m);
  if (at >= 0)
    return output
      .slice(at)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(0, 80)
      .join('\n');
  if (result.status !== 0)
    return `mocha exited with ${result.status ?? result.signal} without a failing test (a crash before or after the tests)`;
  return '';
}

const results = [pass('single Redis (everything)', extra, {})];
const clusterAvailable = spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status === 0;
if (extra.length === 0 && clusterAvailable) {
  results.push(
    pass(
      'Redis Cluster, 3 masters (every Lua script, scenarios, idempotency, metrics, CLI, shard moves, delivery, stop, order, crash recovery, debounce, takeover, failures, lost turn jobs)',
      ['--config', '.mocharc.cluster.json'],
      { TEST_REDIS_TOPOLOGY: 'cluster' },
    ),
  );
  results.push(
    pass(
      'Redis behind Sentinel (scenarios, idempotency, CLI, delivery, stop, takeover, order, crash recovery, failures)',
      ['--config', '.mocharc.sentinel.json'],
      { TEST_REDIS_TOPOLOGY: 'sentinel' },
    ),
  );
} else if (extra.length === 0) {
  process.stdout.write('[dialog-relay] redis-cli not found: the cluster pass cannot run\n');
  results.push({ label: 'Redis Cluster', passed: 0, failed: 1, failures: 'redis-cli not found: the cluster pass could not run' });
}
for (const r of results.filter((r) => r.failures))
  process.stdout.write(`\n[dialog-relay] failures of the pass "${r.label}":\n${r.failures}\n`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
