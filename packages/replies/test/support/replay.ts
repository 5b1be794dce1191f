import type { JobProducer } from '@dialog-relay/queue';
import { SETTINGS, type Harness } from '../harness.js';
import { replayDeadLetter, type ReplayResult } from '../internals.js';

/** Replays a dead letter as the API and the CLI do, over the harness's store and clock; `jobs` takes the redelivery job. */
export const replayOn = (h: Harness, jobs: Pick<JobProducer, 'add'>, deliveryId: string): Promise<ReplayResult> =>
  replayDeadLetter(
    {
      deliveries: h.deliveries,
      jobs,
      shardOfDelivery: h.keys.shardOfDelivery,
      replyMaxAgeMs: SETTINGS.replyMaxAgeMs,
      nowMs: () => h.clock.now,
    },
    deliveryId,
  );
