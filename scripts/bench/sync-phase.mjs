// 1. The synchronous path: each scenario's requests/s against a bare Express + express.json
// endpoint measured in the same run (before and after, averaged: the machine is shared).
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { processCpuUs } from './cpu.mjs';
import { failures, load, pool } from './load.mjs';
import { forkReady, freePort, serviceEnv, startApi, stop } from './processes.mjs';

export async function syncPhase({ root, redis, receiver, sign, seconds, log, clients }) {
  const bareBody = (i) => ({ msgId: String(i), body: JSON.stringify({ client: 'bench', timestamp: Math.floor(Date.now() / 1000), signature: 'x', message_info: { content: 'hi', trace: i } }) });
  const runBare = async (redisUrl) => {
    const port = await freePort();
    const bare = await forkReady(join(root, 'scripts/bench/bare-server.mjs'), { REDIS_URL: redisUrl, PORT: String(port) });
    await load(`http://127.0.0.1:${port}`, pool(0, bareBody), { duration: 1 }); // warm-up, not counted
    const result = await load(`http://127.0.0.1:${port}`, pool(0, bareBody), { duration: seconds });
    await stop(bare);
    return result;
  };
  log(`1. synchronous requests: 32 connections, ${seconds} s per figure`);
  const bareBefore = await runBare('');
  const floor = await runBare(redis.url);
  const api = await startApi(root, serviceEnv(redis, { REDIS_PREFIX: `bench-sync-${randomUUID().slice(0, 6)}:`, CLIENTS: clients }));
  const results = {};
  const cpu = {};
  let errors = 0;
  for (const [id, eventType, options] of [
    ['cmd', 'cmd_dialog', { content: 'auto_reply_status' }],
    ['website', 'website_dialog', {}],
    ['assist', 'assist_dialog', {}],
    ['auto_accept', 'auto_dialog', { sendUrl: `${receiver.base}/hook` }],
  ]) {
    // 3,000 customers: every request a new msg_id, conversations that keep a realistic context.
    const next = pool(4000 * seconds, (i) => sign(eventType, { ...options, customer: `${id}-${i % 3000}` }));
    await load(api.url, pool(2000, (i) => sign(eventType, { ...options, customer: `warm-${id}-${i}` })), { duration: 1 }); // warm-up, not counted
    const cpuBefore = processCpuUs(api.child.pid);
    const result = await load(api.url, next, { duration: seconds });
    const cpuAfter = processCpuUs(api.child.pid);
    // The API's CPU per answered request of the measured run (warm-up left out).
    cpu[id] = cpuBefore === null || cpuAfter === null ? null : { us: cpuAfter - cpuBefore, requests: result.requests.total };
    errors += failures(result);
    results[id] = result;
    log(`   ${eventType.padEnd(15)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors + result.timeouts}`);
  }
  await stop(api.child);
  const bareAfter = await runBare('');
  const bare = (bareBefore.requests.average + bareAfter.requests.average) / 2;
  const spread = Math.abs(bareBefore.requests.average - bareAfter.requests.average) / bare;
  log(`   bare Express    ${bareBefore.requests.average.toFixed(0)} then ${bareAfter.requests.average.toFixed(0)} req/s (spread ${(spread * 100).toFixed(0)} %); with 2 Redis round trips ${floor.requests.average.toFixed(0)} req/s`);
  const baseline = 'bare Express + express.json';
  const row = (id, figure, target) => ({ id, figure, value: results[id].requests.average, unit: 'req/s', baseline, baseline_value: bare, ratio: results[id].requests.average / bare, target, direction: 'min',
    p50_ms: results[id].latency.p50, p99_ms: results[id].latency.p99, non2xx: results[id].non2xx });
  const measured = Object.values(cpu);
  const cpuUs = {
    request: measured.every(Boolean) ? measured.reduce((sum, c) => sum + c.us, 0) / measured.reduce((sum, c) => sum + c.requests, 0) : null,
    by_scenario: Object.fromEntries(Object.entries(cpu).map(([id, c]) => [id, c ? c.us / c.requests : null])),
  };
  if (cpuUs.request !== null) log(`   API CPU per request: ${cpuUs.request.toFixed(0)} µs (${Object.entries(cpuUs.by_scenario).map(([id, us]) => `${id} ${us.toFixed(0)}`).join(', ')})`);
  return {
    errors,
    cpuUs,
    rows: [
      row('assist', 'assist_dialog requests/s', 0.6),
      row('website', 'website_dialog requests/s', 0.6),
      row('cmd', 'cmd_dialog requests/s', 0.6),
      row('auto_accept', 'auto_dialog accepts/s', 0.5),
      { id: 'redis_floor', figure: 'bare Express + 2 Redis round trips requests/s', value: floor.requests.average, unit: 'req/s', baseline, baseline_value: bare, ratio: floor.requests.average / bare, target: null, direction: 'info' },
      { id: 'bare_spread', figure: 'bare Express before / after the scenarios', value: bareAfter.requests.average, unit: 'req/s', baseline: 'bare Express, first run', baseline_value: bareBefore.requests.average, ratio: bareAfter.requests.average / bareBefore.requests.average, target: null, direction: 'info' },
    ],
  };
}
