// 7. Redis commands per request and per delivered reply, counted from outside: MONITOR on the bench's
// private Redis while a fresh API and worker serve one request at a time. Top-level commands only (a
// command a script runs inside Redis is shown by MONITOR as coming from "lua" and is not counted);
// each command is put down to the API or the worker by its connection's name (CLIENT LIST), and what
// the processes send when idle (BullMQ's timers, heartbeats) over as long a time is taken off; the
// worker's sweep and BullMQ's stalled-job check are left out by name.
// MONITOR slows Redis down: this phase counts, it never times.
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { sleep, startPhaseService, stop } from './processes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
// The test kit's MONITOR reads a plain socket: ioredis's can fail when a command line arrives with its OK.
const { monitorRedis } = await import(join(root, 'packages/testkit/dist/src/index.js'));
const { SWEEP_SCRIPTS } = await import(join(root, 'packages/replies/dist/src/index.js'));

/**
 * The worker's timers, not a reply's (as the CI budget test leaves them out): the sweep for waiting
 * messages (every shard's claim-overdue, and waiting-turn for what it finds) and BullMQ's stalled-job
 * check. A sweep runs every few seconds and sends one script per shard, so one falling into the
 * replies' window and not into the idle one would add 16 / 50 to each reply.
 */
const PERIODIC_SHAS = new Set(SWEEP_SCRIPTS.map((s) => s.sha));
const isPeriodic = (args) =>
  (String(args[0]).toLowerCase() === 'evalsha' && PERIODIC_SHAS.has(String(args[1]))) ||
  args.some((arg) => String(arg).endsWith(':stalled-check'));

const WARM = 5;

async function post(url, body) {
  const response = await fetch(`${url}/custom-im/chat-messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The commands MONITOR shows, with the address of the connection that sent them. */
async function startMonitor(url) {
  const events = [];
  const monitor = await monitorRedis(url, ({ args, source }) => {
    if (!isPeriodic(args)) events.push({ at: performance.now(), source, command: String(args[0] ?? '').toLowerCase() });
  });
  return { events, close: () => monitor.close() };
}

/**
 * Connection address → the process it belongs to, from CLIENT LIST while both run: the API's connections
 * are named dialog-relay-api…; every other one is the worker's (its own are named dialog-relay-worker…,
 * BullMQ's blocking ones carry no name of ours), except MONITOR's (flag O) and this listing's own.
 */
async function processesByAddress(url) {
  const probe = new Redis(url, { protocol: 2 });
  const list = String(await probe.client('LIST'));
  probe.disconnect();
  const owners = new Map();
  for (const line of list.split('\n')) {
    const addr = /(?:^| )addr=(\S+)/.exec(line)?.[1];
    const name = /(?:^| )name=(\S*)/.exec(line)?.[1] ?? '';
    const flags = /(?:^| )flags=(\S*)/.exec(line)?.[1] ?? '';
    if (!addr || flags.includes('O') || / cmd=client\|list /.test(line)) continue;
    owners.set(addr, name.startsWith('dialog-relay-api') ? 'api' : 'worker');
  }
  return owners;
}

export async function commandsPhase({ root, redis, receiver, sign, clients, log }, count) {
  const { api, worker } = await startPhaseService({ root, redis, clients }, 'cmd');
  const run = randomUUID().slice(0, 4);
  const scenarios = [
    ['assist', 'assist_dialog', {}],
    ['website', 'website_dialog', {}],
    ['cmd', 'cmd_dialog', { content: 'auto_reply_status' }],
    ['auto', 'auto_dialog', { sendUrl: `${receiver.base}/hook` }],
  ];
  // Every path once (scripts loaded, connections open, the worker's queues started), replies delivered.
  let due = receiver.state.received;
  for (const [id, eventType, options] of scenarios) {
    for (let i = 0; i < WARM; i++)
      if ((await post(api.url, sign(eventType, { ...options, customer: `cmdwarm-${run}-${id}-${i}` }).body)) === 202) due += 1;
  }
  await receiver.until(due, 30_000);
  await sleep(500);

  const monitor = await startMonitor(redis.url);
  let errors = 0;
  let owners = new Map();
  const windows = {};
  try {
    // What both processes send with no traffic, per ms.
    const idleFrom = performance.now();
    await sleep(2000);
    windows.idle = { from: idleFrom, to: performance.now() };
    for (const [id, eventType, options] of scenarios) {
      const from = performance.now();
      let accepted = 0;
      // One request at a time, each a new conversation (an auto_dialog message is then one reply).
      for (let i = 0; i < count; i++) {
        const status = await post(api.url, sign(eventType, { ...options, customer: `cmd-${run}-${id}-${i}` }).body);
        if (status === 202) accepted += 1;
        else if (status !== 200) errors += 1;
      }
      windows[id] = { from, to: performance.now() };
      if (id === 'auto') {
        // The replies: from the first accept to the last delivery, the worker's commands.
        due += accepted;
        await receiver.until(due, 60_000);
        windows.reply = { from, to: performance.now(), replies: accepted };
      }
    }
    await sleep(200); // the last commands' MONITOR lines
    owners = await processesByAddress(redis.url);
  } finally {
    monitor.close();
  }
  await stop(worker);
  await stop(api.child);

  const counted = (owner, { from, to }) =>
    monitor.events.filter((e) => e.at >= from && e.at <= to && e.source !== 'lua' && owners.get(e.source) === owner).length;
  const idleRate = (owner) => counted(owner, windows.idle) / (windows.idle.to - windows.idle.from);
  const net = (owner, window) => Math.max(0, counted(owner, window) - idleRate(owner) * (window.to - window.from));
  const commands = {
    assist: net('api', windows.assist) / count,
    website: net('api', windows.website) / count,
    cmd: net('api', windows.cmd) / count,
    auto: net('api', windows.auto) / count,
    reply: windows.reply.replies > 0 ? net('worker', windows.reply) / windows.reply.replies : null,
  };
  // The worker's commands per reply by name (scripts as EVALSHA, BullMQ's blocking wait as BZPOPMIN), idle ones included.
  const byCommand = {};
  for (const e of monitor.events) {
    if (e.at < windows.reply.from || e.at > windows.reply.to || e.source === 'lua' || owners.get(e.source) !== 'worker') continue;
    byCommand[e.command] = (byCommand[e.command] ?? 0) + 1 / Math.max(1, windows.reply.replies);
  }
  const unattributed = monitor.events.filter((e) => e.source !== 'lua' && !owners.has(e.source)).length;
  log(
    `   per request: assist ${commands.assist.toFixed(1)}, website ${commands.website.toFixed(1)}, cmd (auto_reply_status) ${commands.cmd.toFixed(1)}, auto_dialog accept ${commands.auto.toFixed(1)}; per delivered reply (worker, BullMQ included) ${commands.reply?.toFixed(1) ?? '-'}`,
  );
  log(
    `   per delivered reply by command: ${Object.entries(byCommand)
      .map(([name, n]) => `${name} ${n.toFixed(1)}`)
      .join(', ')}`,
  );
  log(
    `   idle: API ${(idleRate('api') * 1000).toFixed(1)}/s, worker ${(idleRate('worker') * 1000).toFixed(1)}/s (taken off); commands from other connections (not counted): ${unattributed}`,
  );
  return { commands, errors };
}
