import { monitorRedis, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/**
 * A shard's worker that finishes a job while more wait takes the next one in the same call that
 * finishes it (BullMQ's moveToFinished fetching the next job), as a plain BullMQ worker does, instead
 * of one more moveToActive round trip of its fetch loop for every job (docs/design/scaling.md, "Shards on one
 * Redis"). The replica's take limit used to lower the shard worker's concurrency the moment
 * its job ended, before BullMQ decided, so no job ever came that way: one shard's fetch loop was a
 * ceiling of its own (about 250 jobs a second on the bench host).
 */
const JOBS = 24;
/** Jobs taken by moveToActive: the first ones fill WORKER_CONCURRENCY, the rest come with a finish. */
const MOST_FETCHED_ALONE = 8;

describe("a shard worker's next job comes with the finish of the last", function () {
  this.timeout(60_000);
  let system: System;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    // One shard, no worker yet: the turn jobs of JOBS conversations wait in its queue.
    system = await startSystem({ workers: 0, env: { QUEUE_SHARDS: '1', WORKER_CONCURRENCY: '4', WORKER_STALLED_INTERVAL_MS: '30000' } });
  });
  after(async () => {
    await system?.close();
    await receiver?.close();
  });

  it(`takes at most ${MOST_FETCHED_ALONE} of ${JOBS} waiting jobs by a moveToActive of their own`, async () => {
    for (let i = 0; i < JOBS; i++) {
      const sent = await system.send(
        { from_user_id: `chain-customer-${i}`, to_user_id: 'bound', content: 'hello' },
        { send_url: receiver.url },
      );
      expect(sent.status).to.equal(202);
    }
    const target = system.config.redis.target;
    if (target.mode !== 'single') throw new Error('counted on one Redis');
    // BullMQ's scripts by their keys (a script's first run is an EVAL, later ones EVALSHA): moveToActive
    // names the queue's wait and active lists and no finished set; moveToFinished names the completed set.
    let fetchedAlone = 0;
    let finished = 0;
    let lastAt = performance.now();
    const monitor = await monitorRedis(target.url, ({ args }) => {
      lastAt = performance.now();
      const command = args[0]?.toUpperCase();
      if (command !== 'EVALSHA' && command !== 'EVAL') return;
      if (args.some((arg) => arg.endsWith(':completed'))) finished += 1;
      else if (args.some((arg) => arg.endsWith(':active')) && args.some((arg) => arg.endsWith(':wait'))) fetchedAlone += 1;
    });
    try {
      system.startWorker();
      await receiver.waitFor(JOBS);
      // every job finished: the worker has sent nothing for a while
      await waitUntil(() => performance.now() - lastAt > 750, 10_000);
    } finally {
      monitor.close();
    }
    expect(finished, 'jobs finished while counted').to.equal(JOBS);
    expect(fetchedAlone, `moveToActive calls for ${JOBS} jobs`).to.be.at.most(MOST_FETCHED_ALONE);
  });
});
