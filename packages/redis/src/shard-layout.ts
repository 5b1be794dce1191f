import keySlot from 'cluster-key-slot';

/** Redis Cluster has 16384 hash slots; a key's slot is CRC16 of its {hash tag} modulo this. */
export const CLUSTER_SLOTS = 16384;

export const slotOf = (key: string): number => keySlot(key);

/**
 * One hash tag per shard (docs/design/scaling.md), chosen so that shard k's slot lies in the k-th of
 * `shards` equal slot ranges: shards spread evenly over slots, and so over the masters of a cluster
 * whose slots are split evenly. Deterministic: every process computes the same tags.
 */
export function shardTags(shards: number): readonly string[] {
  return Object.freeze(
    Array.from({ length: shards }, (_, k) => {
      const from = Math.floor((k * CLUSTER_SLOTS) / shards);
      const to = Math.floor(((k + 1) * CLUSTER_SLOTS) / shards);
      for (let n = 0; n < 1_000_000; n++) {
        const tag = `r${k}.${n}`;
        const slot = slotOf(`{${tag}}`);
        if (slot >= from && slot < to) return tag;
      }
      throw new Error(`no hash tag found for shard ${k} of ${shards}`);
    }),
  );
}

/** The shard of a conversation: a stable hash of its id (CRC16, the cluster's own), modulo the shard count. */
export const shardOfId = (id: string, shards: number): number => slotOf(id) % shards;

/** The data in Redis was written with another QUEUE_SHARDS: starting would strand it. */
export class ShardCountMismatchError extends Error {
  constructor(
    readonly recorded: number,
    readonly configured: number,
  ) {
    super(
      `QUEUE_SHARDS is ${configured} but the data in Redis was written with ${recorded} shards: conversations would move to other shards and their waiting replies be stranded. ` +
        `Set QUEUE_SHARDS=${recorded}, or change the count as docs/design/scaling.md says (stop the API, let the workers drain the queues, run the CLI's "shards migrate" with the new count).`,
    );
    this.name = 'ShardCountMismatchError';
  }
}

/**
 * Records the shard count on first start and refuses a different one later (services), or only
 * refuses a different one (`read`: the operator CLI records nothing).
 */
export async function checkShardCount(
  redis: { set(key: string, value: string, nx: 'NX'): Promise<unknown>; get(key: string): Promise<string | null> },
  key: string,
  shards: number,
  mode: 'record' | 'read' = 'record',
): Promise<void> {
  if (mode === 'record') await redis.set(key, String(shards), 'NX');
  const raw = await redis.get(key);
  if (raw === null && mode === 'read') return;
  const recorded = Number(raw);
  if (recorded !== shards) throw new ShardCountMismatchError(recorded, shards);
}
