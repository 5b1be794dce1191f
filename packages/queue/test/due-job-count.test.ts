import type { Redis } from '@dialog-relay/redis';
import type { Queue } from 'bullmq';
import { expect } from 'chai';
import { dueJobCount } from '../src/index.js';
import { replyQueuesPerTest } from './support/reply-queues.js';

describe('count of due reply jobs (what the worker autoscaler scales on)', () => {
  let redis: Redis;
  let queues: Queue[];
  replyQueuesPerTest('due-count', (connection, opened) => {
    redis = connection;
    queues = opened;
  });

  it('is 0 on empty queues', async () => {
    expect(await dueJobCount(redis, queues, Date.now())).to.equal(0);
  });

  it('counts waiting jobs on every shard queue, never a delayed job whose time has not come', async () => {
    const first = await queues[0]!.add('conversation-turn', {}, { jobId: 'a' });
    await queues[1]!.add('conversation-turn', {}, { jobId: 'b' });
    await queues[1]!.add('conversation-turn', {}, { jobId: 'debounced', delay: 60_000 });
    expect(await dueJobCount(redis, queues, first.timestamp)).to.equal(2);
  });

  it('counts a delayed job once it is due (no worker promoted it), from its due millisecond on', async () => {
    const job = await queues[0]!.add('conversation-turn', {}, { jobId: 'due', delay: 1000 });
    expect(await dueJobCount(redis, queues, job.timestamp + 999)).to.equal(0);
    expect(await dueJobCount(redis, queues, job.timestamp + 1000)).to.equal(1);
    expect(await dueJobCount(redis, queues, job.timestamp + 60_000)).to.equal(1);
  });

  it('counts prioritized jobs', async () => {
    await queues[1]!.add('conversation-turn', {}, { jobId: 'p', priority: 5 });
    expect(await queues[1]!.getJobState('p')).to.equal('prioritized');
    expect(await dueJobCount(redis, queues, Date.now())).to.equal(1);
  });
});
