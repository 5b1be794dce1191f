import { QUEUE_NAMES } from '@dialog-relay/queue';
import { createRedis } from '@dialog-relay/redis';
import { waitUntil } from '@dialog-relay/testkit';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { suiteSystem } from './support/suite-system.js';

/**
 * WORKER_CONCURRENCY is a replica's total (docs/design/scaling.md): a replica runs at most that many jobs
 * and takes (moves to active, locks) at most WORKER_CONCURRENCY + QUEUE_SHARDS − 1, so jobs it
 * cannot run yet stay free for the other replicas.
 */
describe('what one replica takes, two replicas and a burst', function () {
  this.timeout(60_000);
  const concurrency = 4;
  const shards = 4;
  // Each reply is held 150 ms by the receiver, so taken jobs stay active long enough to be counted.
  const suite = suiteSystem(
    { workers: 2, env: { WORKER_CONCURRENCY: String(concurrency), QUEUE_SHARDS: String(shards) } },
    (_request, _index, res) => void setTimeout(() => res.writeHead(200).end('ok'), 150),
  );

  it(`never lets a replica hold more than WORKER_CONCURRENCY + QUEUE_SHARDS - 1 (${concurrency + shards - 1}) jobs, and answers every message`, async () => {
    const redis = createRedis(suite.system.config.redis, 'worker', { name: 'take-limit-probe' });
    const queues = Array.from(
      { length: shards },
      (_, shard) => new Queue(QUEUE_NAMES.replies, { connection: redis, prefix: suite.system.keys.bullPrefix(shard) }),
    );
    const most = new Map<string, number>();
    let watching = true;
    // Active jobs per replica (a job's processedBy names the replica that took it), sampled throughout.
    const watcher = (async () => {
      while (watching) {
        const active = (await Promise.all(queues.map((queue) => queue.getActive(0, -1)))).flat();
        const byReplica = new Map<string, number>();
        for (const job of active) byReplica.set(job.processedBy ?? '?', (byReplica.get(job.processedBy ?? '?') ?? 0) + 1);
        for (const [replica, n] of byReplica) most.set(replica, Math.max(most.get(replica) ?? 0, n));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      const total = 48;
      await Promise.all(
        Array.from({ length: total }, (_, i) =>
          suite.system.send(
            { from_user_id: `burst-customer-${i}`, to_user_id: 'burst-bound', content: 'hello', msg_id: `burst-${i}` },
            { send_url: suite.receiver.url },
          ),
        ),
      );
      await waitUntil(() => new Set(suite.receiver.requests.flatMap((r) => r.body.in_reply_to)).size === total, 40_000);
    } finally {
      watching = false;
      await watcher;
      await Promise.all(queues.map((queue) => queue.close()));
      redis.disconnect();
    }
    expect(most.has('?'), 'every active job names the replica that took it').to.equal(false);
    expect(most.size, JSON.stringify([...most])).to.equal(2);
    for (const [replica, n] of most) expect(n, `${replica} held ${n} at once`).to.be.at.most(concurrency + shards - 1);
  });
});
