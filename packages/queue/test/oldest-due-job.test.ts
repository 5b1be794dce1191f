import type { Redis } from '@dialog-relay/redis';
import type { Queue } from 'bullmq';
import { expect } from 'chai';
import { oldestDueJobAgeMs } from '../src/index.js';
import { replyQueuesPerTest } from './support/reply-queues.js';

describe('age of the oldest due reply job', () => {
  let redis: Redis;
  let queues: Queue[];
  replyQueuesPerTest('oldest-due', (connection, opened) => {
    redis = connection;
    queues = opened;
  });

  it('is 0 when no job is due', async () => {
    const job = await queues[0]!.add('conversation-turn', {}, { jobId: 'later', delay: 60_000 });
    expect(await oldestDueJobAgeMs(redis, queues, job.timestamp + 1000)).to.equal(0);
  });

  it('counts a waiting job from when it was added', async () => {
    const job = await queues[1]!.add('conversation-turn', {}, { jobId: 'now' });
    expect(await oldestDueJobAgeMs(redis, queues, job.timestamp + 3000)).to.equal(3000);
  });

  it('counts a job that is due but still in the delayed set (no worker promoted it) from when it became due', async () => {
    const job = await queues[0]!.add('conversation-turn', {}, { jobId: 'due', delay: 1000 });
    expect(await oldestDueJobAgeMs(redis, queues, job.timestamp + 1000 + 5000)).to.equal(5000);
    expect(await oldestDueJobAgeMs(redis, queues, job.timestamp + 500)).to.equal(0);
  });

  it('counts a promoted delayed job from when it became due, not from when it was added', async () => {
    const job = await queues[0]!.add('conversation-turn', {}, { jobId: 'promoted', delay: 2000 });
    await job.promote();
    expect(await queues[0]!.getJobState('promoted')).to.equal('waiting');
    expect(await oldestDueJobAgeMs(redis, queues, job.timestamp + 2000 + 4000)).to.equal(4000);
  });

  it('takes the oldest over every shard queue and both sets', async () => {
    const waiting = await queues[1]!.add('conversation-turn', {}, { jobId: 'w' });
    const delayed = await queues[0]!.add('conversation-turn', {}, { jobId: 'd', delay: 10 });
    const now = Math.max(waiting.timestamp, delayed.timestamp + 10) + 10_000;
    expect(await oldestDueJobAgeMs(redis, queues, now)).to.equal(Math.max(now - waiting.timestamp, now - delayed.timestamp - 10));
  });
});
