import { QUEUE_NAMES } from '@dialog-relay/queue';
import { createRedisKeys, planKeyMove, type KeyMove, type KeySource, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { Queue } from 'bullmq';
import { Cluster, type Redis as SingleRedis } from 'ioredis';
import { output, UsageError, type Output } from '../output.js';

const USAGE = 'usage: shards migrate';

export interface ShardsDeps {
  redis: Redis;
  /** The layout of the configured QUEUE_SHARDS (the target). */
  keys: RedisKeys;
}

/**
 * `shards migrate`: moves what lasts from the layout the data was written with (the recorded
 * QUEUE_SHARDS) to the configured one, then
 * records the new count (docs/design/scaling.md "Changing QUEUE_SHARDS"). Refuses, changing nothing, while
 * a reply is still on its way: stop the API and let the workers drain the queues first.
 */
export async function shardsCommand(deps: ShardsDeps, args: readonly string[]): Promise<Output> {
  const [action, ...rest] = args;
  if (action !== 'migrate' || rest.length > 0) throw new UsageError(USAGE);
  const { redis, keys } = deps;
  const recorded = await redis.get(keys.shardCount);
  if (recorded === null)
    return output(`no QUEUE_SHARDS recorded under ${keys.prefix}: nothing to move`, { ok: false, recorded: null }, false);
  if (Number(recorded) === keys.shards)
    return output(`QUEUE_SHARDS is already ${keys.shards}: nothing to move`, { ok: true, recorded: keys.shards, moved: 0 });
  const from = createRedisKeys(keys.prefix, Number(recorded));
  const source: KeySource = { prefix: keys.prefix, tags: new Set(from.shardTags) };
  const oldQueues = from.shardTags.map((_, shard) => from.bullPrefix(shard));
  const newQueues = new Set(keys.shardTags.map((_, shard) => keys.bullPrefix(shard)));

  // 1. Plan, and refuse while anything is on its way.
  const queues = oldQueues.map((prefix) => ({ prefix, queue: new Queue(QUEUE_NAMES.replies, { connection: redis, prefix }) }));
  try {
    const jobs = (
      await Promise.all(
        queues.map(async ({ queue }) =>
          Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children')).reduce(
            (a, b) => a + b,
            0,
          ),
        ),
      )
    ).reduce((a, b) => a + b, 0);
    const plan: { key: string; move: KeyMove }[] = [];
    const blockers: string[] = [];
    await scanMasters(redis, `${keys.prefix}{*}:*`, (key) => {
      const move = planKeyMove(key, source, keys);
      if (move.kind === 'blocks') blockers.push(`${key} (${move.reason})`);
      else if (move.kind === 'move' || move.kind === 'dead-letters' || move.kind === 'drop') plan.push({ key, move });
    });
    if (jobs > 0 || blockers.length > 0) {
      const why = [
        ...(jobs > 0 ? [`${jobs} reply job(s) in the old queues`] : []),
        ...blockers.slice(0, 10),
        ...(blockers.length > 10 ? [`… ${blockers.length - 10} more`] : []),
      ];
      return output(
        `not drained, nothing moved: stop the API, let the workers finish, then run again:\n  ${why.join('\n  ')}`,
        { ok: false, jobs, blockers },
        false,
      );
    }

    // 2. Move.
    let moved = 0;
    let dropped = 0;
    let deadLetters = 0;
    const conflicts: string[] = [];
    for (const { key, move } of plan) {
      if (move.kind === 'drop') {
        dropped += await redis.del(key);
      } else if (move.kind === 'dead-letters') {
        deadLetters += await reindexDeadLetters(redis, keys, key);
      } else if (move.kind === 'move' && move.to !== key) {
        const result = await moveKey(redis, key, move.to);
        if (result === 'moved') moved += 1;
        if (result === 'conflict') conflicts.push(`${key} -> ${move.to}`);
      }
    }

    // 3. The drained old queues go (not one the new layout shares), and the new count is recorded.
    for (const { prefix, queue } of queues) if (!newQueues.has(prefix)) await queue.obliterate();
    await redis.set(keys.shardCount, String(keys.shards));
    const text = [
      `moved ${moved} key(s), re-indexed ${deadLetters} dead letter(s), deleted ${dropped} derived key(s); QUEUE_SHARDS ${recorded} -> ${keys.shards} recorded`,
      ...conflicts.map((c) => `  kept (the new key exists already): ${c}`),
    ].join('\n');
    return output(text, { ok: true, from: Number(recorded), to: keys.shards, moved, deadLetters, dropped, conflicts });
  } finally {
    await Promise.all(queues.map(({ queue }) => queue.close()));
  }
}

/** Every key matching `pattern`, one SCAN pass over each master. */
async function scanMasters(redis: Redis, pattern: string, visit: (key: string) => void): Promise<void> {
  const nodes: Pick<SingleRedis, 'scan'>[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      batch.forEach(visit);
    } while (cursor !== '0');
  }
}

/** DUMP / RESTORE (the expiry kept, across slots and masters), then the old key goes; an existing new key is never overwritten. */
async function moveKey(redis: Redis, from: string, to: string): Promise<'moved' | 'gone' | 'conflict'> {
  const [payload, ttlMs] = await Promise.all([redis.dumpBuffer(from), redis.pttl(from)]);
  if (payload === null || ttlMs === -2) return 'gone';
  try {
    await redis.restore(to, Math.max(0, ttlMs), payload);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('BUSYKEY')) return 'conflict';
    throw error;
  }
  await redis.del(from);
  return 'moved';
}

/** Each dead letter of an old index goes to the index of its delivery's shard in the new layout. */
async function reindexDeadLetters(redis: Redis, keys: RedisKeys, from: string): Promise<number> {
  const entries = await redis.zrange(from, 0, '-1', 'WITHSCORES');
  let moved = 0;
  for (let i = 0; i + 1 < entries.length; i += 2) {
    const id = entries[i]!;
    const to = keys.deadLetters(keys.shardOfDelivery(id));
    if (to === from) continue;
    await redis.zadd(to, entries[i + 1]!, id);
    await redis.zrem(from, id);
    moved += 1;
  }
  return moved;
}
