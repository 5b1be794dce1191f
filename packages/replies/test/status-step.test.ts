import { createRedisKeys } from '@dialog-relay/redis';
import { expect } from 'chai';
import { createAutoReplies, type AutoRepliesDeps } from '../src/auto-replies.js';
import { newDeliveryId } from '../src/delivery-id.js';

/** Only statusStep is asked for: it builds its call and touches no store. */
const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used by statusStep')) });

describe('the status step of auto_reply_status', () => {
  const keys = createRedisKeys('dr-test:', 16);
  const replies = createAutoReplies({
    turns: unused as AutoRepliesDeps['turns'],
    deliveries: unused as AutoRepliesDeps['deliveries'],
    jobs: unused as AutoRepliesDeps['jobs'],
    aborts: unused as AutoRepliesDeps['aborts'],
    steps: { keys, timings: { debounceMs: 0, maxWaitMs: 0, pendingTtlMs: 60_000, attemptMarkerTtlMs: 60_000 } },
    settings: { debounceMs: 0, humanPauseMs: 0, abortWaitMs: 300 },
  });
  /** Conversation ids by shard, two of each of the first shards found. */
  const byShard = new Map<number, string[]>();
  for (let i = 0; byShard.size < 4 || [...byShard.values()].some((ids) => ids.length < 2); i++) {
    const id = `c_status_${i}`;
    const shard = keys.shardOf(id);
    if (byShard.size >= 4 && !byShard.has(shard)) continue;
    const ids = byShard.get(shard) ?? [];
    if (ids.length < 2) byShard.set(shard, [...ids, id]);
  }

  it("names each shard's delivery records: the prefix and suffix of the ids made in the conversation's shard", () => {
    for (const [shard, [first]] of byShard) {
      const { call } = replies.statusStep(first!);
      const args = call.args as { deliveryPrefix: string; shardSuffix: string };
      const id = newDeliveryId(shard);
      expect(id.endsWith(args.shardSuffix), `${id} ends with ${args.shardSuffix}`).to.equal(true);
      expect(args.deliveryPrefix + id).to.equal(keys.delivery(id));
      // the ten latest deliveries: the same for every call, so in the part's text
      expect(call.part.settings).to.deep.equal({ limit: 10, keep: 'none', keptMax: 0 });
      expect(Object.keys(args)).to.deep.equal(['deliveryPrefix', 'shardSuffix']);
    }
  });

  it('gives the conversations of one shard the same arguments, and each shard its own, whatever the order asked', () => {
    const shards = [...byShard.keys()];
    const argsOf = (id: string) => replies.statusStep(id).call.args;
    for (const shard of [...shards].reverse()) {
      const [first, second] = byShard.get(shard)!;
      expect(argsOf(second!)).to.equal(argsOf(first!));
    }
    for (let i = 1; i < shards.length; i++) {
      expect(argsOf(byShard.get(shards[i]!)![0]!)).to.not.deep.equal(argsOf(byShard.get(shards[0]!)![0]!));
    }
  });
});
