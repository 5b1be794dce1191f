import { createRedis, createRedisKeys, createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { Worker, type Queue } from 'bullmq';
import { expect } from 'chai';
import { createJobProducer, createReplyQueues, JOB_NAMES, turnJobId, type JobName } from '../src/index.js';

interface Added {
  shard: number;
  name: string;
  data: unknown;
  opts: unknown;
}

/** The one Queue method the producer calls, recorded per shard. */
const fakeQueues = (shards: number, added: Added[]): Queue[] =>
  Array.from(
    { length: shards },
    (_, shard) =>
      ({
        add: (name: string, data: unknown, opts: unknown) => Promise.resolve(void added.push({ shard, name, data, opts })),
      }) as unknown as Queue,
  );

describe('job producer', () => {
  it('adds a job with its payload on the queue of its shard, under its job id', async () => {
    const added: Added[] = [];
    const producer = createJobProducer(fakeQueues(4, added), { shardOf: () => 2 });

    await producer.add(JOB_NAMES.redeliver, { deliveryId: 'dlv_1_s3' }, { jobId: 'redeliver-1', shard: 3 });
    await producer.addTurn('c_1', 5, 700);

    expect(added).to.deep.equal([
      { shard: 3, name: 'redeliver', data: { deliveryId: 'dlv_1_s3' }, opts: { jobId: 'redeliver-1' } },
      { shard: 2, name: 'conversation-turn', data: { conversationId: 'c_1', generation: 5 }, opts: { jobId: 'c_1-5', delay: 700 } },
    ]);
  });

  it("does not compile an add whose payload is not its job name's, nor a job name outside the catalog", () => {
    const added: Added[] = [];
    const producer = createJobProducer(fakeQueues(1, added), { shardOf: () => 0 });
    const options = { jobId: 'j', shard: 0 };
    const refused: (() => Promise<void>)[] = [
      // @ts-expect-error a redeliver job takes { deliveryId }, not a turn's payload
      () => producer.add(JOB_NAMES.redeliver, { conversationId: 'c_1', generation: 0 }, options),
      // @ts-expect-error a turn's payload needs its generation
      () => producer.add(JOB_NAMES.conversationTurn, { conversationId: 'c_1' }, options),
      // @ts-expect-error not a job of the catalog
      () => producer.add('purge-everything', {}, options),
    ];
    // A name known only as "some job name" cannot take either payload: the pair must match.
    const someName = (): JobName => JOB_NAMES.redeliver;
    // @ts-expect-error the payload of a job name not known at compile time is not accepted
    refused.push(() => producer.add(someName(), { conversationId: 'c_1', generation: 0 }, options));

    expect(refused).to.have.length(4);
    expect(added).to.deep.equal([]);
  });

  describe('ensureTurn (the safety net for a lost turn job), on a real queue', () => {
    let redis: Redis;
    before(async () => {
      // as the API's queue connection: BullMQ defines its scripts on it, so no auto-pipelining (packages/redis)
      redis = createRequestRedis(testRedisUrl(), { name: 'job-producer-test' });
      await waitForRedis(redis, 5000);
    });
    after(() => redis.disconnect());

    it('adds a missing turn job, leaves one that can still run, and replaces one that has finished', async () => {
      const keys = createRedisKeys(uniquePrefix('producer'), 2);
      const queues = createReplyQueues(redis, keys, { failureAttempts: 3 });
      const producer = createJobProducer(queues, keys);
      const queue = queues[keys.shardOf('c_1')]!;
      try {
        expect(await producer.ensureTurn('c_1', 4)).to.equal('added');
        expect(await queue.getJobState(turnJobId('c_1', 4))).to.equal('waiting');
        expect(await producer.ensureTurn('c_1', 4)).to.equal('exists');

        // Run it to completion: a completed job keeps its id, so a plain add would be ignored.
        const connection = createRedis({ target: { mode: 'single', url: testRedisUrl() }, password: undefined, tls: false }, 'worker', {
          name: 'job-producer-test-worker',
        });
        const worker = new Worker(queue.name, () => Promise.resolve(), { connection, prefix: keys.bullPrefix(keys.shardOf('c_1')) });
        try {
          await new Promise((resolve) => worker.once('completed', resolve));
        } finally {
          await worker.close();
          connection.disconnect();
        }
        expect(await queue.getJobState(turnJobId('c_1', 4))).to.equal('completed');

        expect(await producer.ensureTurn('c_1', 4)).to.equal('replaced');
        expect(await queue.getJobState(turnJobId('c_1', 4))).to.equal('waiting');
        expect((await queue.getJob(turnJobId('c_1', 4)))?.data).to.deep.equal({ conversationId: 'c_1', generation: 4 });
      } finally {
        await queue.obliterate({ force: true });
        await Promise.all(queues.map((q) => q.close()));
      }
    });
  });
});
