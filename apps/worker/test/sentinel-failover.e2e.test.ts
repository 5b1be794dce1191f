import { QUEUE_NAMES, turnJobId } from '@dialog-relay/queue';
import { createRedis } from '@dialog-relay/redis';
import { Queue } from 'bullmq';
import { Redis as SingleRedis } from 'ioredis';
import { startRedisSentinel, waitUntil, type RedisSentinelHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/**
 * docs/service-rules.md §13, docs/design/scaling.md: behind Sentinel, kill -9 the master while messages
 * arrive. The API answers 503 during the failover, never 500, and every message it acknowledged with
 * 202 survives on the promoted replica (the API waits for a replica, WAIT 1, before the 202).
 *
 * No worker runs during the traffic, so nothing acknowledged is answered (and so safe) before the
 * kill: every acknowledged message exists only as Redis state that had to reach a replica. Two
 * replicas, so that one is left to confirm WAIT after the other is promoted.
 */
describe('Redis Sentinel failover under traffic (master killed with -9)', function () {
  this.timeout(120_000);
  let sentinel: RedisSentinelHandle;
  let system: System;
  let receiver: Receiver;
  before(async () => {
    sentinel = await startRedisSentinel('dialog-relay-test', 2);
    receiver = await startReceiver();
    system = await startSystem({
      workers: 0,
      redis: { REDIS_SENTINELS: sentinel.sentinels, REDIS_SENTINEL_NAME: sentinel.name },
      env: { AUTO_REPLY_DEBOUNCE_MS: '0', QUEUE_SHARDS: '4' },
    });
  });
  after(async () => {
    await system?.close();
    await receiver?.close();
    await sentinel?.dispose();
  });

  it('answers 503 (never 500) while the master is gone and loses no acknowledged message', async () => {
    const firstMaster = await sentinel.currentMasterPort();
    const acknowledged = new Map<string, string>(); // msg_id -> conversation_id
    const statuses = new Map<number, number>();
    const ackTimes: number[] = [];
    let killedAt = 0;
    let sent = 0;
    const sendOne = async (): Promise<void> => {
      const msgId = `fo-${++sent}`;
      const answer = await system
        .send(
          { from_user_id: `fo-customer-${sent % 8}`, to_user_id: 'fo-bound', content: 'is my order on its way?', msg_id: msgId },
          { send_url: receiver.url },
        )
        .catch(() => ({ status: 0, json: { data: undefined } }));
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 202) {
        acknowledged.set(msgId, String(answer.json.data?.['conversation_id']));
        ackTimes.push(Date.now());
      }
    };
    // Traffic: a message every 25 ms, not waiting for the previous answer, so the kill lands while
    // requests are in flight; the master dies once a second of traffic was acknowledged; traffic goes
    // on until the new master has acknowledged 20 more.
    const inFlight: Promise<void>[] = [];
    const started = Date.now();
    while (Date.now() - started < 60_000) {
      inFlight.push(sendOne());
      await new Promise((resolve) => setTimeout(resolve, 25));
      if (killedAt === 0 && Date.now() - started > 1000 && acknowledged.size >= 10) {
        killedAt = Date.now();
        await sentinel.master.kill();
      }
      if (killedAt > 0 && ackTimes.filter((t) => t > killedAt).length >= 20) break;
    }
    await Promise.all(inFlight);
    ackTimes.sort((a, b) => a - b);
    const before = ackTimes.filter((t) => t < killedAt);
    const after = ackTimes.filter((t) => t > killedAt);
    expect(killedAt, 'the master was never killed').to.be.greaterThan(0);
    expect(before.length, 'messages acknowledged before the kill').to.be.at.least(10);
    expect(after.length, 'messages acknowledged after the failover').to.be.at.least(20);
    const checkedMaster = await sentinel.currentMasterPort();
    expect(checkedMaster).to.not.equal(firstMaster);
    expect(
      [...statuses.keys()].filter((status) => status !== 202 && status !== 503),
      `${JSON.stringify([...statuses])}\n${system.apiErrors().slice(0, 5).join('\n')}`,
    ).to.deep.equal([]);
    expect(statuses.get(503) ?? 0).to.be.greaterThan(0); // the API noticed the failover and said so

    // Before any worker runs: every acknowledged message is on the new master, in its conversation's
    // context and queued for a reply.
    const redis = createRedis(system.config.redis, 'worker', { name: 'failover-check' });
    const missing: string[] = [];
    try {
      for (const [msgId, conversationId] of acknowledged) {
        const [recorded, queued] = await Promise.all([
          redis.hexists(system.keys.contextMessages(conversationId), msgId),
          redis.exists(system.keys.scheduledMessage(conversationId, msgId)),
        ]);
        if (recorded !== 1 || queued !== 1) missing.push(msgId);
      }
    } finally {
      redis.disconnect();
    }

    // Then a worker answers every one of them.
    system.startWorker();
    await waitUntil(
      () => [...acknowledged.keys()].every((id) => receiver.requests.some((r) => r.body.in_reply_to.includes(id))),
      45_000,
    ).catch(() => undefined);
    const answered = new Set(receiver.requests.flatMap((r) => r.body.in_reply_to));
    const lost = [...acknowledged.keys()].filter((id) => !answered.has(id));
    const pauseMs = Math.max(...ackTimes.slice(1).map((t, i) => t - ackTimes[i]!));
    // Sentinel may fail over a second time (to the other replica): then only what that replica had survives.
    const masters = [...new Set([firstMaster, checkedMaster, await sentinel.currentMasterPort()])].join(' -> ');
    const figures =
      `sent ${sent}, acknowledged ${acknowledged.size} (${before.length} before the kill, ${after.length} after), ` +
      `503 ${statuses.get(503) ?? 0}, missing on the new master ${missing.length}, lost ${lost.length}, longest pause ${pauseMs} ms, masters ${masters}`;
    process.stdout.write(`      failover figures: ${figures}\n`);
    // CI shows the tail of a run, where the runner repeats the failure messages: they carry the figures.
    const diagnosis =
      missing.length + lost.length === 0
        ? ''
        : `${figures}\n${await describeServers(sentinel)}\n` +
          `acknowledged at (ms after the kill): ${after.map((t) => t - killedAt).join(' ')}`;
    if (lost.length > 0)
      process.stderr.write(
        `turns of the lost messages:\n${await describeTurns(
          system,
          lost.map((id) => acknowledged.get(id) ?? ''),
        )}\n`,
      );
    expect(missing, `acknowledged but not on the new master\n${diagnosis}`).to.deep.equal([]);
    expect(lost, `acknowledged but never answered\n${diagnosis}`).to.deep.equal([]);
  });
});

/** Failure diagnostics: each server's role and replication as it says, and whom each sentinel names master. */
async function describeServers(sentinel: RedisSentinelHandle): Promise<string> {
  const ask = async (port: number, ...command: [string, ...string[]]): Promise<string> => {
    const probe = new SingleRedis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return JSON.stringify(await probe.call(...command));
    } catch (error) {
      return `unreachable (${error instanceof Error ? error.message : String(error)})`;
    } finally {
      probe.disconnect();
    }
  };
  const servers = await Promise.all(
    [sentinel.master, ...sentinel.replicas].map(async (server) => {
      const info = await ask(server.port, 'INFO', 'replication');
      const fields = ['role', 'master_port', 'master_link_status', 'master_replid', 'master_repl_offset', 'connected_slaves']
        .map((field) => new RegExp(`${field}:([^\\\\]*)`).exec(info)?.[1])
        .filter(Boolean)
        .join(' ');
      return `server ${server.port}: ${fields || info}`;
    }),
  );
  const views = await Promise.all(
    sentinel.sentinels.split(',').map(async (address) => {
      const port = Number(address.split(':')[1]);
      return `sentinel ${port} names ${await ask(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', sentinel.name)}`;
    }),
  );
  return [...servers, ...views].join('\n');
}

/** Failure diagnostics: the turn state and the turn job of each conversation. */
async function describeTurns(system: System, conversations: string[]): Promise<string> {
  const redis = createRedis(system.config.redis, 'worker', { name: 'failover-diagnose' });
  try {
    const lines = await Promise.all(
      [...new Set(conversations)].map(async (c) => {
        const { keys } = system;
        const [generation, pending, batch, attempt] = await Promise.all([
          redis.get(keys.replyGeneration(c)),
          redis.lrange(keys.pendingReplies(c), 0, -1),
          redis.get(keys.replyBatch(c)),
          redis.hkeys(keys.attemptsInFlight(c)),
        ]);
        const queue = new Queue(QUEUE_NAMES.replies, { connection: redis, prefix: keys.bullPrefix(keys.shardOf(c)) });
        const job = await queue.getJob(turnJobId(c, Number(generation ?? 0)));
        const state = job ? await job.getState() : 'no job';
        await queue.close();
        const ids = pending.map((json) => (JSON.parse(json) as { message: { msg_id: string } }).message.msg_id);
        const deliveryIds = await redis.lrange(keys.conversationDeliveries(c), 0, 20);
        const deliveries = await Promise.all(
          deliveryIds.map(async (id) => {
            const [state, inReplyTo, reason] = await redis.hmget(keys.delivery(id), 'state', 'in_reply_to', 'dead_reason');
            return `${id} ${state} ${inReplyTo} ${reason ?? ''}`;
          }),
        );
        return `${c}: generation ${generation}, job ${state}${job?.failedReason ? ` (${job.failedReason})` : ''}, pending [${ids.join(', ')}], batch ${batch ?? '-'}, attempts [${attempt.join(', ')}]\n    ${deliveries.join('\n    ')}`;
      }),
    );
    return lines.join('\n');
  } finally {
    redis.disconnect();
  }
}
