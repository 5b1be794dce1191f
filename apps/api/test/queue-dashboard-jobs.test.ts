import { createReplyQueues, JOB_NAMES } from '@dialog-relay/queue';
import { createRedis, createRedisKeys, waitForRedis, type Redis } from '@dialog-relay/redis';
import { expect } from 'chai';
import { Worker, type Queue } from 'bullmq';
import { startTestApi, type TestApi } from './support/test-api.js';

const READ = 'read-token-0123456789';
const CUSTOMER_TEXT = 'my card number is 4242 4242 4242 4242';

interface BoardJob {
  id: string;
  name: string;
  data: unknown;
  failedReason?: string;
  progress: unknown;
}

/** issue 20: a dashboard job showed "5 started" but not its conversation or its last error. */
describe('queue dashboard jobs (bull-board JSON API on a real Redis)', function () {
  this.timeout(60_000);
  let t: TestApi;
  let redis: Redis;
  let queues: Queue[];
  before(async () => {
    t = await startTestApi({ ADMIN_TOKEN: READ });
    redis = createRedis(t.config.redis, 'worker', { name: 'dashboard-jobs-test' });
    await waitForRedis(redis, 5000);
    queues = createReplyQueues(redis, createRedisKeys(t.config.redisPrefix, t.config.redis.shards), { failureAttempts: 3 });
  });
  after(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    redis.disconnect();
    await t.close();
  });

  async function boardJobs(status: string): Promise<BoardJob[]> {
    const answer = await fetch(
      `${t.url}/admin/queues/api/queues?activeQueue=${encodeURIComponent(await boardName(0))}&status=${status}&page=1`,
      { headers: { authorization: `Bearer ${READ}` } },
    );
    expect(answer.status).to.equal(200);
    const body = (await answer.json()) as { queues: { name: string; jobs: BoardJob[] }[] };
    return body.queues.flatMap((queue) => queue.jobs);
  }
  async function boardName(shard: number): Promise<string> {
    const answer = (await (await fetch(`${t.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${READ}` } })).json()) as {
      queues: { name: string }[];
    };
    return answer.queues.map((queue) => queue.name).sort()[shard] ?? '';
  }

  it('names a turn job by its conversation and generation, and shows its last error, never customer text', async () => {
    const queue = queues[0]!;
    // A payload with an extra member standing in for anything a future payload might carry: the board shows only ids.
    const job = await queue.add(
      JOB_NAMES.conversationTurn,
      { conversationId: 'c_dashboard_1', generation: 4, text: CUSTOMER_TEXT },
      { jobId: 'c_dashboard_1-4', attempts: 3, backoff: { type: 'fixed', delay: 60_000 } },
    );
    // One run that fails (as a turn does when Redis or a handler throws): BullMQ keeps the job, delayed, with its failedReason.
    const connection = createRedis(t.config.redis, 'worker', { name: 'dashboard-jobs-worker' });
    const worker = new Worker(queue.name, () => Promise.reject(new Error('delivery to send_url answered 503')), {
      connection,
      prefix: queue.opts.prefix,
      autorun: true,
    });
    try {
      for (let i = 0; i < 100 && (await queue.getJobState(job.id!)) !== 'delayed'; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await worker.close();
      connection.disconnect();
    }
    expect(await queue.getJobState(job.id!)).to.equal('delayed');

    const shown = (await boardJobs('delayed')).find((j) => j.id === job.id);
    expect(shown, 'the job on the board').to.not.equal(undefined);
    expect(shown!.name)
      .to.include('c_dashboard_1')
      .and.include('generation 4')
      .and.include('last error: delivery to send_url answered 503');
    expect(shown!.data).to.deep.equal({ conversationId: 'c_dashboard_1', generation: 4 });
    expect(JSON.stringify(shown)).to.not.include('4242');
  });

  it('shows why a turn waits after a failed delivery attempt the worker retries itself (no thrown error)', async () => {
    const job = await queues[0]!.add(
      JOB_NAMES.conversationTurn,
      { conversationId: 'c_dashboard_3', generation: 1 },
      { jobId: 'c_dashboard_3-1', delay: 60_000 },
    );
    await job.updateProgress({ last_error: 'delivery dlv_3 attempt 2: answered 503' });
    const shown = (await boardJobs('delayed')).find((j) => j.id === job.id);
    expect(shown!.name).to.include('c_dashboard_3').and.include('retrying after: delivery dlv_3 attempt 2: answered 503');
    expect(shown!.name).to.not.include('last error');
  });

  it('names a redelivery job by its delivery id', async () => {
    const job = await queues[0]!.add(JOB_NAMES.redeliver, { deliveryId: 'dlv_dashboard_2' }, { delay: 60_000 });
    const shown = (await boardJobs('delayed')).find((j) => j.id === job.id);
    expect(shown!.name).to.include('dlv_dashboard_2');
    expect(shown!.data).to.deep.equal({ deliveryId: 'dlv_dashboard_2' });
  });
});
