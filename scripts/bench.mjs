// `npm run bench`: dialog-relay against baselines measured in the same run, on this machine, on
// loopback only. Prints the table of the performance issue (every figure beside its baseline, as a
// ratio) and writes bench/results/latest.json. Asserts nothing: speed is measured here, never in tests.
// Sizes (environment, defaults fit a 2-core machine in under 5 minutes): BENCH_SECONDS (5) per
// synchronous figure, BENCH_DELIVERIES (4000), BENCH_RATE (500 msg/s) for BENCH_E2E_SECONDS (10),
// BENCH_MEMORY_REQUESTS (100000, sampled after a tenth), BENCH_CLUSTER (1: also on a 3-master cluster),
// BENCH_COMMANDS (50 requests of each scenario counted with MONITOR), BENCH_INSTRUCTIONS (1000
// messages on a Redis under callgrind, when valgrind is installed).
import { callgrindInstalled } from './bench/callgrind-redis.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandsPhase } from './bench/commands-phase.mjs';
import { ourDeliveries, rawDeliveries } from './bench/delivery-phase.mjs';
import { instructionsPhase } from './bench/instructions-phase.mjs';
import { ourLatency, rawLatency } from './bench/latency-phase.mjs';
import { memoryPhase } from './bench/memory-phase.mjs';
import { killAll } from './bench/processes.mjs';
import { startReceiver } from './bench/receiver.mjs';
import { machine, printFigures, printTable, writeResults } from './bench/report.mjs';
import { syncPhase } from './bench/sync-phase.mjs';
import { clientsEnv, createSigner, loadMessages } from './bench/traffic.mjs';
import { ensureNode } from './node-runtime.mjs';

// On a Node older than 22, the bench runs under Node 24 instead (scripts/node-runtime.mjs).
await ensureNode('supported', (line) => process.stdout.write(`[dialog-relay] ${line}\n`));

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const numberOf = (name, fallback) => Number(process.env[name] ?? fallback);
const SECONDS = numberOf('BENCH_SECONDS', 5);
const DELIVERIES = numberOf('BENCH_DELIVERIES', 4000);
const RATE = numberOf('BENCH_RATE', 500);
const E2E_SECONDS = numberOf('BENCH_E2E_SECONDS', 10);
const MEMORY = numberOf('BENCH_MEMORY_REQUESTS', 100_000);
const CLUSTER = process.env.BENCH_CLUSTER !== '0';
const COMMANDS = numberOf('BENCH_COMMANDS', 50);
const INSTRUCTIONS = numberOf('BENCH_INSTRUCTIONS', 1000);
// BENCH_ONLY=sync,delivery,latency,memory,cluster,commands,instructions runs some phases (while working on one figure).
const only = process.env.BENCH_ONLY?.split(',');
const runs = (phase) => only === undefined || only.includes(phase);
const log = (line) => process.stdout.write(`${line}\n`);

const { signRequestBody } = await import(join(root, 'packages/signing/dist/src/index.js'));
const { startRedisServer, startRedisCluster } = await import(join(root, 'packages/testkit/dist/src/index.js'));
const { loadKnowledgeBase, EXAMPLE_KNOWLEDGE_FILE } = await import(join(root, 'packages/reply-engine/dist/src/index.js'));

const began = performance.now();
const messages = loadMessages(root);
const kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
const counts = new Map();
for (const { lang } of messages) counts.set(lang, (counts.get(lang) ?? 0) + 1);
const languages = [...counts].map(([lang, n]) => `${n} ${lang}`).join(', ');
log(`dialog-relay benchmark: node ${process.version}, ${machine()}`);
log(
  `traffic: ${messages.length} distinct customer messages (${languages}), a fresh msg_id per request, knowledge FAQ of ${kb.entries.length} entries`,
);

const servers = [];
const receiver = await startReceiver();
const rows = [];
/** Figures besides the ratios (bench/results/latest.json: redis_commands, cpu_us, alloc_kib, redis_cpu_us, redis_instructions, e2e_by_second, cpu_us_paced). */
const figures = {
  e2e_by_second: null,
  cpu_us_paced: null,
  redis_commands: null,
  cpu_us: { request: null, by_scenario: null, redis_by_scenario: null, main_thread: null, reply: null },
  alloc_kib: null,
  redis_cpu_us: null,
  redis_instructions: null,
};
/** A baseline's two runs, before and after dialog-relay, averaged field by field (null where either run has none). */
const meanOfRuns = (before, after) =>
  Object.fromEntries(
    Object.keys(before).map((key) => [key, before[key] === null || after[key] === null ? null : (before[key] + after[key]) / 2]),
  );
let errors = 0;
try {
  const single = await startRedisServer();
  servers.push(single);
  const ctx = {
    root,
    redis: { url: single.url },
    receiver,
    messages,
    sign: createSigner(signRequestBody, messages, 'b'),
    clients: clientsEnv(receiver.base),
    log,
  };

  if (runs('sync')) {
    const sync = await syncPhase({ ...ctx, seconds: SECONDS });
    rows.push(...sync.rows);
    errors += sync.errors;
    figures.cpu_us.request = sync.cpuUs.request;
    figures.cpu_us.by_scenario = sync.cpuUs.by_scenario;
    figures.cpu_us.redis_by_scenario = sync.cpuUs.redis_by_scenario;
    figures.cpu_us.main_thread = sync.cpuUs.main_thread;
    figures.alloc_kib = sync.allocKib;
  }

  let ours;
  if (runs('delivery') || runs('cluster')) {
    log(`2. delivery: ${DELIVERIES} replies over ${DELIVERIES / 10} conversations, one worker, concurrency 50`);
    // The raw baseline runs before and after dialog-relay and the two are averaged, as bare Express
    // is in phase 1: a machine whose load drifts during the phase then weighs on both sides alike.
    const rawBefore = await rawDeliveries(ctx, DELIVERIES);
    ours = await ourDeliveries(ctx, ctx.redis, DELIVERIES, DELIVERIES / 10);
    const rawAfter = await rawDeliveries(ctx, DELIVERIES);
    const raw = meanOfRuns(rawBefore, rawAfter);
    // The deliveries go through node's http.request, not got (docs/dependencies.md): the same baseline
    // with that client says how much of the ratio above is the cheaper client.
    const rawHttp = await rawDeliveries(ctx, DELIVERIES, undefined, 'http');
    errors += ours.errors;
    log(
      `   raw BullMQ + got ${rawBefore.rate.toFixed(0)} then ${rawAfter.rate.toFixed(0)} /s (Redis ${rawBefore.redisCpu?.toFixed(0) ?? '-'} then ${rawAfter.redisCpu?.toFixed(0) ?? '-'} µs per job), dialog-relay ${ours.rate.toFixed(0)} /s`,
    );
    rows.push({
      id: 'delivery',
      figure: 'deliveries/s, one worker, WORKER_CONCURRENCY=50',
      value: ours.rate,
      unit: '/s',
      baseline: 'raw BullMQ worker + got',
      baseline_value: raw.rate,
      ratio: ours.rate / raw.rate,
      target: 0.7,
      direction: 'min',
    });
    figures.cpu_us.reply = ours.workerCpu;
    if (ours.redisCpu !== null && raw.redisCpu !== null) {
      figures.redis_cpu_us = { auto: ours.redisCpu, raw: raw.redisCpu };
      log(
        `   Redis CPU per message accepted and delivered ${ours.redisCpu.toFixed(0)} µs, per raw BullMQ job added and processed ${raw.redisCpu.toFixed(0)} µs; worker CPU per reply ${ours.workerCpu?.toFixed(0) ?? '-'} µs`,
      );
      rows.push({
        id: 'redis_cpu',
        figure: 'Redis CPU per auto_dialog message, accept to delivery',
        value: ours.redisCpu,
        unit: 'µs',
        baseline: 'per raw BullMQ job, add + process',
        baseline_value: raw.redisCpu,
        ratio: ours.redisCpu / raw.redisCpu,
        target: 2,
        direction: 'max',
      });
    }
    log(`   raw BullMQ + http.request ${rawHttp.rate.toFixed(0)} /s`);
    rows.push({
      id: 'delivery_http',
      figure: 'deliveries/s, one worker, against the client it uses',
      value: ours.rate,
      unit: '/s',
      baseline: 'raw BullMQ worker + http.request',
      baseline_value: rawHttp.rate,
      ratio: ours.rate / rawHttp.rate,
      target: null,
      direction: 'info',
    });
    rows.push({
      id: 'delivery_baseline_spread',
      figure: 'raw BullMQ + got after / before dialog-relay',
      value: rawAfter.rate,
      unit: '/s',
      baseline: 'raw BullMQ + got, first run',
      baseline_value: rawBefore.rate,
      ratio: rawAfter.rate / rawBefore.rate,
      target: null,
      direction: 'info',
    });
  }

  if (runs('latency')) {
    const count = RATE * E2E_SECONDS;
    log(`3. accept→delivered at ${RATE} msg/s for ${E2E_SECONDS} s over 200 conversations; 4. stop_auto_reply under that load`);
    // The raw baseline before and after dialog-relay, averaged (as phase 2's).
    const rawBefore = await rawLatency(ctx, RATE, count);
    const lat = await ourLatency(ctx, RATE, count, Number(process.env.BENCH_STOPS ?? 20));
    const rawAfter = await rawLatency(ctx, RATE, count);
    const rawLat = meanOfRuns(rawBefore, rawAfter);
    errors += lat.errors;
    log(
      `   raw BullMQ add→delivered p50 ${rawBefore.p50.toFixed(2)} then ${rawAfter.p50.toFixed(2)} ms, p99 ${rawBefore.p99.toFixed(1)} then ${rawAfter.p99.toFixed(1)} ms; dialog-relay p50 ${lat.p50.toFixed(1)} ms p99 ${lat.p99.toFixed(1)} ms; stops ${lat.stops}, attempts after the answer ${lat.attemptsAfter}`,
    );
    const seconds = (series) => series.map(([p50, p99]) => `${p50}/${p99}`).join(' ');
    log(`   p50/p99 ms by second of acceptance: dialog-relay ${seconds(lat.bySecond)}; raw (before) ${seconds(rawBefore.bySecond)}`);
    figures.e2e_by_second = { dialog_relay: lat.bySecond, raw_before: rawBefore.bySecond, raw_after: rawAfter.bySecond };
    figures.cpu_us_paced = { dialog_relay: lat.cpuUs, raw: meanOfRuns(rawBefore.cpuUs, rawAfter.cpuUs) };
    const cpuLine = (cpu) => {
      const parts = Object.entries(cpu).filter(([, us]) => us !== null);
      const sum = parts.reduce((total, [, us]) => total + us, 0);
      return `${parts.map(([name, us]) => `${name} ${Math.round(us)}`).join(', ')} (all ${Math.round(sum)})`;
    };
    log(
      `   CPU µs per paced message: dialog-relay ${cpuLine(figures.cpu_us_paced.dialog_relay)}; raw ${cpuLine(figures.cpu_us_paced.raw)}`,
    );
    for (const p of ['p50', 'p99']) {
      rows.push({
        id: `e2e_${p}`,
        figure: `accept→delivered ${p} at ${RATE} msg/s`,
        value: lat[p],
        unit: 'ms',
        baseline: 'raw BullMQ add→delivered',
        baseline_value: rawLat[p],
        ratio: lat[p] / rawLat[p],
        target: 3,
        direction: 'max',
      });
    }
    rows.push({
      id: 'stop_attempts_after',
      figure: `stop_auto_reply under load (${lat.stops} stops): attempts started after the answer`,
      value: lat.attemptsAfter,
      unit: '',
      baseline: 'none allowed',
      baseline_value: 0,
      ratio: lat.attemptsAfter,
      target: 0,
      direction: 'max',
    });
  }

  if (runs('memory')) {
    log(`5. memory: RSS after ${MEMORY / 10} and after ${MEMORY} requests (mixed scenarios, 30 % auto_dialog delivered)`);
    const memory = await memoryPhase(ctx, MEMORY / 10, MEMORY);
    errors += memory.errors;
    for (const which of ['api', 'worker']) {
      rows.push({
        id: `rss_${which}`,
        figure: `${which === 'api' ? 'API' : 'worker'} RSS after ${MEMORY} requests (< 250 MiB)`,
        value: memory.last[which],
        unit: 'MiB',
        baseline: `after ${MEMORY / 10}`,
        baseline_value: memory.first[which],
        ratio: memory.last[which] / memory.first[which],
        target: 1.2,
        direction: 'max',
        under_250: memory.last[which] < 250,
      });
    }
  }

  if (runs('commands')) {
    log(`7. Redis commands (MONITOR, top-level only): ${COMMANDS} requests of each scenario, one at a time`);
    const counted = await commandsPhase(ctx, COMMANDS);
    errors += counted.errors;
    figures.redis_commands = counted.commands;
  }

  if (runs('instructions')) {
    if (!callgrindInstalled()) log('8. Redis instructions per message: skipped, valgrind is not installed');
    else {
      log(`8. Redis instructions per message: phase 2's runs, ${INSTRUCTIONS} messages each, on a redis-server under callgrind`);
      const counted = await instructionsPhase(ctx, INSTRUCTIONS);
      errors += counted.errors;
      figures.redis_instructions = counted;
      log(
        `   raw BullMQ job ${(counted.raw.total / 1000).toFixed(1)}k (add ${(counted.raw.add / 1000).toFixed(1)}k, process ${(counted.raw.process / 1000).toFixed(1)}k); dialog-relay message ${(counted.ours.total / 1000).toFixed(1)}k (accept ${(counted.ours.accept / 1000).toFixed(1)}k, delivery ${(counted.ours.delivery / 1000).toFixed(1)}k)`,
      );
      log(
        `   per synchronous request: ${Object.entries(counted.sync)
          .map(([figure, instructions]) => `${figure} ${(instructions / 1000).toFixed(1)}k`)
          .join(', ')}`,
      );
      rows.push({
        id: 'redis_instructions',
        figure: 'Redis instructions per auto_dialog message, accept to delivery',
        value: counted.ours.total,
        unit: 'instr',
        baseline: 'per raw BullMQ job, add + process',
        baseline_value: counted.raw.total,
        ratio: counted.ours.total / counted.raw.total,
        target: null,
        direction: 'info',
      });
    }
  }

  if (CLUSTER && ours && runs('cluster')) {
    log(`6. the delivery run on a 3-master Redis Cluster`);
    const cluster = await startRedisCluster(3);
    servers.push(cluster);
    const onCluster = await ourDeliveries(ctx, { nodes: cluster.nodes }, DELIVERIES, DELIVERIES / 10);
    errors += onCluster.errors;
    rows.push({
      id: 'cluster_delivery',
      figure: 'deliveries/s on a 3-master Redis Cluster',
      value: onCluster.rate,
      unit: '/s',
      baseline: 'the same run on one Redis',
      baseline_value: ours.rate,
      ratio: onCluster.rate / ours.rate,
      target: null,
      direction: 'info',
    });
  }
  const last = rows.find((row) => row.id === 'stop_attempts_after');
  log(`\nResults (${((performance.now() - began) / 1000).toFixed(0)} s; errors ${errors})`);
  printTable(rows, log);
  printFigures(figures, log);
  const file = writeResults(root, { rows, stopAttemptsAfter: last?.value ?? null, errors, figures });
  log(`\nwritten to ${file.slice(root.length + 1)}`);
} finally {
  killAll();
  await receiver.close();
  await Promise.all(servers.map((server) => server.dispose()));
}
