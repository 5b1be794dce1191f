import { createRedis, type Redis } from '@dialog-relay/redis';
import { SWEEP_SCRIPTS } from '@dialog-relay/replies';
import { monitorRedis, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/**
 * The round-trip budget of a delivered reply (docs/design/performance.md, "What was optimised"; docs/design/reply-protocol.md, "Round trips of a reply"): the top-level Redis
 * commands the worker's connections send for one auto_dialog message, from the moment the API
 * queued it until the worker waits for the next job, counted with MONITOR on the test's own Redis.
 * What a script runs inside Redis is not counted. A feature that adds a round trip to the delivery
 * path fails here.
 */
const REPLY_BUDGET = 6;
/**
 * Three replies of one conversation whose next messages wait as each turn ends: the first costs
 * what one reply costs, each later one only its SETTLE (which ends one turn and takes the next).
 * One job per turn cost 6 each, 18.
 */
const BACKLOG_BUDGET = REPLY_BUDGET + 2;

/** Commands of the worker's timers, not of a reply: the safety net's sweep and BullMQ's stalled-job check. */
const PERIODIC_SHAS = new Set(SWEEP_SCRIPTS.map((script) => script.sha));
const PERIODIC_SOURCES = new Set(SWEEP_SCRIPTS.map((script) => script.source));
const isPeriodic = (args: readonly string[]): boolean => {
  const command = args[0]?.toUpperCase();
  const script = args[1] ?? '';
  return (
    (command === 'EVALSHA' && PERIODIC_SHAS.has(script)) ||
    (command === 'EVAL' && PERIODIC_SOURCES.has(script)) ||
    args.some((arg) => arg.endsWith(':stalled-check'))
  );
};

/** A command MONITOR showed, with when it arrived. */
interface Seen {
  args: string[];
  at: number;
}

/**
 * How long the worker sends nothing, once its job is finished, before a reply's commands are counted
 * as over: it then waits for a job (its blocking read times out after 5 s, a timer of the idle worker).
 */
const QUIET_MS = 750;

/** True once the worker's job is finished (BullMQ's moveToFinished) and it has sent nothing for QUIET_MS. */
const waitsForAJob = (seen: readonly Seen[]): boolean => {
  const last = seen.at(-1);
  const finished = seen.some(({ args }) => args[0]?.toUpperCase() === 'EVALSHA' && args.some((arg) => arg.endsWith(':completed')));
  return finished && last !== undefined && performance.now() - last.at >= QUIET_MS;
};

/** The addresses of the worker process's connections: its own (dialog-relay-worker*) and BullMQ's duplicates of them. */
async function workerAddresses(admin: Redis): Promise<Set<string>> {
  const addresses = new Set<string>();
  for (const line of ((await admin.client('LIST')) as string).split('\n')) {
    const name = /\bname=(\S*)/.exec(line)?.[1] ?? '';
    const addr = /\baddr=(\S+)/.exec(line)?.[1];
    if (addr && (name.startsWith('dialog-relay-worker') || name.includes(':bull:'))) addresses.add(addr);
  }
  return addresses;
}

describe('Redis commands per delivered reply', function () {
  this.timeout(60_000);
  let system: System;
  const redisUrl = (): string => {
    const target = system.config.redis.target;
    if (target.mode !== 'single') throw new Error('the command budget is counted on one Redis');
    return target.url;
  };
  let receiver: Receiver;
  let admin: Redis;
  before(async () => {
    receiver = await startReceiver();
    // One shard, and room for more than one job (as a replica has): an idle BullMQ worker that takes a
    // job looks for a second one at once (one more moveToActive), then waits again. The stalled-job
    // check and the sweep are timers.
    system = await startSystem({ workers: 1, env: { QUEUE_SHARDS: '1', WORKER_CONCURRENCY: '4', WORKER_STALLED_INTERVAL_MS: '30000' } });
    admin = createRedis(system.config.redis, 'worker', { name: 'e2e-command-budget' });
  });
  after(async () => {
    admin?.disconnect();
    await system?.close();
    await receiver?.close();
  });

  it(`delivers an auto_dialog reply in at most ${REPLY_BUDGET} commands of the worker, BullMQ's included`, async function () {
    // Warm: the worker's scripts are loaded and its client is cached by a first reply.
    const warm = await system.send({ from_user_id: 'budget-warm', to_user_id: 'bound', content: 'hello' }, { send_url: receiver.url });
    expect(warm.status).to.equal(202);
    await receiver.waitFor(1);
    await waitUntil(async () => (await system.turnJobState(String(warm.json.data!['conversation_id']), 0)) === 'completed', 10_000);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS)); // the warm reply's own idle loop

    const addresses = await workerAddresses(admin);
    expect(addresses.size).to.be.greaterThan(0);

    const seen: Seen[] = [];
    const monitor = await monitorRedis(redisUrl(), ({ args, source }) => {
      if (addresses.has(source) && !isPeriodic(args)) seen.push({ args: [...args], at: performance.now() });
    });
    try {
      const sent = await system.send(
        { from_user_id: 'budget-customer', to_user_id: 'bound', content: 'where is my order?' },
        { send_url: receiver.url },
      );
      expect(sent.status).to.equal(202);
      await receiver.waitFor(2);
      // Done once the worker waits for the next job: everything it sent until then is this reply's,
      // BullMQ's search for a second job and a blocking read that returns at once included.
      await waitUntil(() => waitsForAJob(seen), 10_000);
    } finally {
      monitor.close();
    }
    const reply = seen.map((command) => command.args);
    const described = reply.map((args) => args.slice(0, 4).join(' ')).join('\n');
    expect(reply.length, `commands of one delivered reply:\n${described}`).to.be.at.most(REPLY_BUDGET);
  });

  it(`delivers three replies of a backlog in at most ${BACKLOG_BUDGET} commands: one job goes on from turn to turn, one script per turn`, async function () {
    const addresses = await workerAddresses(admin);
    // The receiver holds the first reply until the customer's next two messages wait.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const before = receiver.requests.length;
    receiver.respond(async (_request, index, res) => {
      if (index === before) await held;
      res.writeHead(200).end('ok');
    });
    const seen: Seen[] = [];
    const monitor = await monitorRedis(redisUrl(), ({ args, source }) => {
      if (addresses.has(source) && !isPeriodic(args)) seen.push({ args: [...args], at: performance.now() });
    });
    try {
      const customer = { from_user_id: 'budget-backlog', to_user_id: 'bound' };
      expect((await system.send({ ...customer, content: 'where is my order?' }, { send_url: receiver.url })).status).to.equal(202);
      await waitUntil(() => receiver.requests.length > before, 10_000);
      for (const content of ['and the invoice?', 'thanks']) {
        expect((await system.send({ ...customer, content }, { send_url: receiver.url })).status).to.equal(202);
      }
      release();
      await receiver.waitFor(before + 3);
      await waitUntil(() => waitsForAJob(seen), 10_000);
    } finally {
      monitor.close();
      receiver.respond((_request, _index, res) => res.writeHead(200).end('ok'));
    }
    const replies = seen.map((command) => command.args);
    const described = replies.map((args) => args.slice(0, 4).join(' ')).join('\n');
    expect(replies.length, `commands of three delivered replies:\n${described}`).to.be.at.most(BACKLOG_BUDGET);
  });
});
