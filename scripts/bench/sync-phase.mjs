// 1. The synchronous path: each scenario's requests/s against a bare Express + express.json
// endpoint measured in the same run (before and after, averaged: the machine is shared).
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { mainThreadUs, perUnit, processCpuUs, redisCpuUs } from './cpu.mjs';
import { kibPerRequest } from './gc-trace.mjs';
import { failures, load, pool } from './load.mjs';
import { forkReady, freePort, serviceEnv, startApi, stop } from './processes.mjs';
import { bareBody } from './traffic.mjs';

/**
 * Runs the load and adds the server's CPU µs per answered request (less sensitive to a loaded
 * machine than requests/s), the KiB it allocated per request (its --trace-gc lines, gc-trace.mjs),
 * Redis's own CPU µs per request (INFO cpu through `probe`): the other process a request keeps
 * busy on the same two cores, and the server's main thread: µs on a core and µs waiting for one per
 * request, and the shares of the wall clock they make (cpu.mjs, mainThreadUs).
 */
const measured = async (pid, gc, probe, run) => {
  const before = processCpuUs(pid) ?? Number.NaN;
  const redisBefore = await redisCpuUs(probe);
  const threadBefore = mainThreadUs(pid);
  const startedNs = process.hrtime.bigint();
  const mark = gc.mark();
  const result = await run();
  const threadAfter = mainThreadUs(pid);
  const wallUs = Number(process.hrtime.bigint() - startedNs) / 1e3;
  const answered = Math.max(1, result.requests.total);
  result.cpuUsPerRequest = ((processCpuUs(pid) ?? Number.NaN) - before) / answered;
  result.redisCpuUsPerRequest = perUnit(redisBefore, await redisCpuUs(probe), result.requests.total);
  result.allocKibPerRequest = kibPerRequest(gc.allocationSince(mark), result.requests.average);
  result.mainThread =
    threadBefore && threadAfter
      ? {
          run_us: (threadAfter.run - threadBefore.run) / answered,
          wait_us: (threadAfter.wait - threadBefore.wait) / answered,
          run_share: (threadAfter.run - threadBefore.run) / wallUs,
          wait_share: (threadAfter.wait - threadBefore.wait) / wallUs,
        }
      : null;
  return result;
};

/** " 116 + 16 µs (82 % + 11 %)": a main thread's µs on a core + waiting for one per request, and their shares of the run. */
const threadFigures = (thread) =>
  thread === null
    ? ' -'
    : ` ${thread.run_us.toFixed(0)} + ${thread.wait_us.toFixed(0)} µs (${(thread.run_share * 100).toFixed(0)} % + ${(thread.wait_share * 100).toFixed(0)} %)`;

/** The statuses other than 2xx a run was answered with, as " (503 ×12, …)"; '' when none. */
const unexpected = (statuses) => {
  const odd = [...statuses].filter(([status]) => status < 200 || status > 299);
  return odd.length === 0 ? '' : ` (${odd.map(([status, count]) => `${status} ×${count}`).join(', ')})`;
};

/**
 * KiB a request may allocate (docs/design/performance.md, "Allocations per request"): what the
 * latest code allocated, rounded up by about 10 % for the run-to-run spread. The report shows each
 * scenario against its budget; a change that allocates more raises it here, in its own commit.
 */
export const ALLOC_BUDGET_KIB = Object.freeze({ cmd: 43, website: 60, assist: 59, auto_accept: 51 });

export async function syncPhase({ root, redis, receiver, sign, seconds, log, clients }) {
  const probe = new Redis(redis.url, { protocol: 2 });
  try {
    return await measureSync({ root, redis, receiver, sign, seconds, log, clients, probe });
  } finally {
    probe.disconnect();
  }
}

async function measureSync({ root, redis, receiver, sign, seconds, log, clients, probe }) {
  const runBare = async (redisUrl) => {
    const port = await freePort();
    const bare = await forkReady(join(root, 'scripts/bench/bare-server.mjs'), { REDIS_URL: redisUrl, PORT: String(port) }, { gc: true });
    await load(`http://127.0.0.1:${port}`, pool(0, bareBody), { duration: 1 }); // warm-up, not counted
    const result = await measured(bare.pid, bare.gc, probe, () =>
      load(`http://127.0.0.1:${port}`, pool(0, bareBody), { duration: seconds }),
    );
    await stop(bare);
    return result;
  };
  log(`1. synchronous requests: 32 connections, ${seconds} s per figure`);
  const bareBefore = await runBare('');
  const floor = await runBare(redis.url);
  const api = await startApi(
    root,
    serviceEnv(redis, { REDIS_PREFIX: `bench-sync-${randomUUID().slice(0, 6)}:`, CLIENTS: clients }),
    undefined,
    { gc: true },
  );
  const results = {};
  let errors = 0;
  for (const [id, eventType, options] of [
    ['cmd', 'cmd_dialog', { content: 'auto_reply_status' }],
    ['website', 'website_dialog', {}],
    ['assist', 'assist_dialog', {}],
    ['auto_accept', 'auto_dialog', { sendUrl: `${receiver.base}/hook` }],
  ]) {
    // 3,000 customers: every request a new msg_id, conversations that keep a realistic context.
    const next = pool(4000 * seconds, (i) => sign(eventType, { ...options, customer: `${id}-${i % 3000}` }));
    await load(
      api.url,
      pool(2000, (i) => sign(eventType, { ...options, customer: `warm-${id}-${i}` })),
      { duration: 1 },
    ); // warm-up, not counted
    const statuses = new Map();
    const result = await measured(api.child.pid, api.gc, probe, () =>
      load(api.url, next, { duration: seconds, onAnswer: (_id, status) => statuses.set(status, (statuses.get(status) ?? 0) + 1) }),
    );
    errors += failures(result);
    results[id] = result;
    log(
      `   ${eventType.padEnd(15)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}${unexpected(statuses)}  errors ${result.errors + result.timeouts}  API CPU ${result.cpuUsPerRequest.toFixed(0)} µs/request`,
    );
  }
  await stop(api.child);
  const bareAfter = await runBare('');
  const bare = (bareBefore.requests.average + bareAfter.requests.average) / 2;
  const spread = Math.abs(bareBefore.requests.average - bareAfter.requests.average) / bare;
  log(
    `   bare Express    ${bareBefore.requests.average.toFixed(0)} then ${bareAfter.requests.average.toFixed(0)} req/s (spread ${(spread * 100).toFixed(0)} %); with 2 Redis round trips ${floor.requests.average.toFixed(0)} req/s`,
  );
  const bareCpu = (bareBefore.cpuUsPerRequest + bareAfter.cpuUsPerRequest) / 2;
  log(
    `   server CPU per request: bare Express ${bareCpu.toFixed(0)} µs; ${Object.entries(results)
      .map(([id, r]) => `${id} ${r.cpuUsPerRequest.toFixed(0)} µs (${(bareCpu / r.cpuUsPerRequest).toFixed(2)} × bare)`)
      .join(', ')}`,
  );
  log(
    `   main thread per request, on a core + waiting for one (shares of the run): bare Express${threadFigures(bareBefore.mainThread)}; ${Object.entries(
      results,
    )
      .map(([id, r]) => `${id}${threadFigures(r.mainThread)}`)
      .join(', ')}`,
  );
  const us = (value) => (value === null ? '-' : value.toFixed(0));
  log(
    `   Redis CPU per request: bare Express + 2 round trips ${us(floor.redisCpuUsPerRequest)} µs; ${Object.entries(results)
      .map(([id, r]) => `${id} ${us(r.redisCpuUsPerRequest)} µs`)
      .join(', ')}`,
  );
  const bareAlloc = (bareBefore.allocKibPerRequest + bareAfter.allocKibPerRequest) / 2;
  log(
    `   allocated per request: bare Express ${bareAlloc.toFixed(1)} KiB; ${Object.entries(results)
      .map(
        ([id, r]) =>
          `${id} ${r.allocKibPerRequest.toFixed(1)} KiB (budget ${ALLOC_BUDGET_KIB[id]}${r.allocKibPerRequest > ALLOC_BUDGET_KIB[id] ? ': OVER' : ''})`,
      )
      .join(', ')}`,
  );
  const baseline = 'bare Express + express.json';
  const row = (id, figure, target) => ({
    id,
    figure,
    value: results[id].requests.average,
    unit: 'req/s',
    baseline,
    baseline_value: bare,
    ratio: results[id].requests.average / bare,
    target,
    direction: 'min',
    p50_ms: results[id].latency.p50,
    p99_ms: results[id].latency.p99,
    non2xx: results[id].non2xx,
    // The same ratio from CPU time: bare Express's server µs per request over ours.
    cpu_us_per_request: results[id].cpuUsPerRequest,
    cpu_ratio: bareCpu / results[id].cpuUsPerRequest,
    alloc_kib_per_request: results[id].allocKibPerRequest,
    alloc_budget_kib: ALLOC_BUDGET_KIB[id],
  });
  const answered = Object.values(results).reduce((sum, r) => sum + r.requests.total, 0);
  const allocKib = {
    bare: bareAlloc,
    ...Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.allocKibPerRequest])),
  };
  const cpuUs = {
    request: Object.values(results).reduce((sum, r) => sum + r.cpuUsPerRequest * r.requests.total, 0) / Math.max(1, answered),
    by_scenario: Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.cpuUsPerRequest])),
    redis_by_scenario: {
      bare_2_round_trips: floor.redisCpuUsPerRequest,
      ...Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.redisCpuUsPerRequest])),
    },
    // bare Express's first run: the one before the scenarios, as the CPU pairs of the log compare
    main_thread: {
      bare: bareBefore.mainThread,
      ...Object.fromEntries(Object.entries(results).map(([id, r]) => [id, r.mainThread])),
    },
  };
  return {
    errors,
    cpuUs,
    allocKib,
    rows: [
      row('assist', 'assist_dialog requests/s', 0.6),
      row('website', 'website_dialog requests/s', 0.6),
      row('cmd', 'cmd_dialog requests/s', 0.6),
      row('auto_accept', 'auto_dialog accepts/s', 0.5),
      {
        id: 'redis_floor',
        figure: 'bare Express + 2 Redis round trips requests/s',
        value: floor.requests.average,
        unit: 'req/s',
        baseline,
        baseline_value: bare,
        ratio: floor.requests.average / bare,
        target: null,
        direction: 'info',
      },
      {
        id: 'bare_spread',
        figure: 'bare Express before / after the scenarios',
        value: bareAfter.requests.average,
        unit: 'req/s',
        baseline: 'bare Express, first run',
        baseline_value: bareBefore.requests.average,
        ratio: bareAfter.requests.average / bareBefore.requests.average,
        target: null,
        direction: 'info',
      },
    ],
  };
}
