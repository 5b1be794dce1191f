import {
  redisServerInstalled,
  startRedisCluster,
  startRedisServer,
  waitUntil,
  type RedisClusterHandle,
  type RedisServerHandle,
} from '@dialog-relay/testkit';
import { expect } from 'chai';
import { startReceiver, type Receiver, type Received } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/**
 * docs/service-rules.md §13 and §15: Redis going away under a running worker. Once it is back, every
 * message the API acknowledged is answered, by one reply (one delivery id), in the order of its
 * conversation: none is left waiting for a job that never runs.
 */

/** msg ids are `<conversation>-<sequence>`: checks one reply per msg id and, per conversation, replies in sequence order. */
function expectAnsweredOnceInOrder(requests: readonly Received[], acknowledged: readonly string[]): void {
  const replyOf = new Map<string, string>();
  for (const request of requests)
    for (const msgId of request.body.in_reply_to) {
      const earlier = replyOf.get(msgId);
      expect(
        earlier === undefined || earlier === request.body.delivery_id,
        `${msgId} answered by ${earlier} and ${request.body.delivery_id}`,
      ).to.equal(true);
      replyOf.set(msgId, request.body.delivery_id);
    }
  expect(
    acknowledged.filter((id) => !replyOf.has(id)),
    'acknowledged messages never answered',
  ).to.deep.equal([]);
  const sequences = new Map<string, number[]>();
  for (const request of requests) {
    const seen = sequences.get(request.body.conversation_id) ?? [];
    for (const id of request.body.in_reply_to) if (!seen.includes(Number(id.split('-').pop()))) seen.push(Number(id.split('-').pop()));
    sequences.set(request.body.conversation_id, seen);
  }
  for (const [conversation, seen] of sequences) expect(seen, `order of ${conversation}`).to.deep.equal([...seen].sort((a, b) => a - b));
}

const allAnswered = (receiver: Receiver, acknowledged: readonly string[]) => (): boolean => {
  const answered = new Set(receiver.requests.flatMap((r) => r.body.in_reply_to));
  return acknowledged.every((id) => answered.has(id));
};

describe('Redis faults under a running worker', function () {
  this.timeout(120_000);
  let receiver: Receiver;
  before(async () => {
    if (!redisServerInstalled()) throw new Error('this test kills its own redis-servers: install redis-server');
    receiver = await startReceiver();
  });
  after(async () => receiver?.close());
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.respond((_r, _i, res) => res.writeHead(200).end('ok'));
  });

  /** Sends `count` messages over six conversations; returns the statuses, and the acknowledged msg ids in `acknowledged`. */
  const sender = (system: System, label: string, acknowledged: string[]) => {
    let sequence = 0;
    return async (count: number): Promise<number[]> => {
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) {
        sequence += 1;
        const msgId = `${label}${sequence % 6}-${sequence}`;
        const answer = await system.send(
          { from_user_id: `${label}customer-${sequence % 6}`, to_user_id: 'bound', content: 'where is my order?', msg_id: msgId },
          { send_url: receiver.url },
        );
        statuses.push(answer.status);
        if (answer.status === 202) acknowledged.push(msgId);
      }
      return statuses;
    };
  };

  describe('one Redis with AOF, killed with -9 while replies wait and an attempt is in flight', () => {
    let server: RedisServerHandle;
    let system: System;
    before(async () => {
      server = await startRedisServer({ args: ['--appendonly', 'yes', '--appendfsync', 'always'] });
      system = await startSystem({ workers: 1, env: { REDIS_URL: server.url, QUEUE_SHARDS: '4' } });
    });
    after(async () => {
      await system?.close();
      await server?.dispose();
    });

    it('answers every acknowledged message once and in order once Redis is back', async () => {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      receiver.respond(async (_r, _i, res) => {
        await held;
        res.writeHead(200).end('ok');
      });
      const acknowledged: string[] = [];
      const statuses = await sender(system, 'aof', acknowledged)(18);
      expect(statuses.every((status) => status === 202)).to.equal(true);
      await receiver.waitFor(1);
      await server.kill();
      release();
      await server.start();
      await waitUntil(allAnswered(receiver, acknowledged), 60_000).catch(() => undefined);
      expectAnsweredOnceInOrder(receiver.requests, acknowledged);
    });
  });

  describe('a Redis Cluster whose master is killed with -9 and started again (no replicas: the cluster is down meanwhile)', () => {
    let cluster: RedisClusterHandle;
    let system: System;
    before(async () => {
      cluster = await startRedisCluster(3);
      system = await startSystem({ workers: 1, redis: { REDIS_CLUSTER_NODES: cluster.nodes }, env: { QUEUE_SHARDS: '6' } });
    });
    after(async () => {
      await system?.close();
      await cluster?.dispose();
    });

    it('answers 503 (never 500) while the cluster is down, then the same worker answers every message acknowledged after', async () => {
      const acknowledged: string[] = [];
      const send = sender(system, 'cl', acknowledged);
      const statuses = await send(12);
      await waitUntil(allAnswered(receiver, acknowledged), 30_000);
      await cluster.servers[1]!.kill();
      statuses.push(...(await send(6)));
      await cluster.servers[1]!.start();
      // Back once the API acknowledges again (the cluster needs a moment to see its master again).
      await waitUntil(async () => (await send(1))[0] === 202, 30_000);
      statuses.push(...(await send(12)));
      expect(
        statuses.filter((status) => status !== 202 && status !== 503),
        system.apiErrors().slice(0, 3).join('\n'),
      ).to.deep.equal([]);
      await waitUntil(allAnswered(receiver, acknowledged), 60_000).catch(() => undefined);
      expectAnsweredOnceInOrder(receiver.requests, acknowledged);
      expect(system.workers[0]!.child.exitCode).to.equal(null);
    });

    it("answers every message acknowledged after a master stalled (SIGSTOP) longer than a worker's blocking wait", async () => {
      const acknowledged: string[] = [];
      const send = sender(system, 'st', acknowledged);
      await send(6);
      await waitUntil(allAnswered(receiver, acknowledged), 30_000);
      const stalled = cluster.servers[2]!;
      stalled.pause();
      try {
        // The fault itself is a length of time: BullMQ blocks 5 s at most and gives up on a blocked
        // command 1 s after; the stall outlasts both.
        await new Promise((resolve) => setTimeout(resolve, 8000));
      } finally {
        stalled.resume();
      }
      await waitUntil(async () => (await send(1))[0] === 202, 30_000);
      await send(12);
      await waitUntil(allAnswered(receiver, acknowledged), 60_000).catch(() => undefined);
      expectAnsweredOnceInOrder(receiver.requests, acknowledged);
    });
  });
});
