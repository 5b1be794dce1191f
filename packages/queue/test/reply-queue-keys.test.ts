import type { Redis } from '@dialog-relay/redis';
import type { Queue } from 'bullmq';
import { expect } from 'chai';
import { replyQueueKeys } from '../src/index.js';
import { replyQueuesPerTest } from './support/reply-queues.js';

describe('the reply queue keys a script of ours is passed', () => {
  let redis: Redis;
  let queues: Queue[];
  replyQueuesPerTest('queue-keys', (connection, opened) => {
    redis = connection;
    queues = opened;
  });

  it('are the keys BullMQ itself names for the shard queue (a BullMQ upgrade that renames them fails here)', () => {
    for (const queue of queues) {
      expect(replyQueueKeys(queue.opts.prefix ?? '')).to.deep.equal({
        jobsWaiting: queue.toKey('wait'),
        jobsPrioritized: queue.toKey('prioritized'),
        jobsMarker: queue.toKey('marker'),
      });
    }
  });

  it('hold what BullMQ writes there: an added job in the wait list and the base marker "0" a worker wakes on', async () => {
    const queue = queues[0]!;
    const keys = replyQueueKeys(queue.opts.prefix ?? '');
    await queue.add('conversation-turn', {}, { jobId: 'k' });
    expect(await redis.lrange(keys.jobsWaiting, 0, -1)).to.deep.equal(['k']);
    expect(await redis.zscore(keys.jobsMarker, '0')).to.equal('0');
    await queue.add('conversation-turn', {}, { jobId: 'p', priority: 3 });
    expect(await redis.zcard(keys.jobsPrioritized)).to.equal(1);
  });
});
