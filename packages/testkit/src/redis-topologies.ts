import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServerHandle } from './redis-server.js';
import { waitUntil } from './wait-until.js';

/** A real 3-master Redis Cluster on loopback (no replicas), for the cluster pass of the suite. */
export interface RedisClusterHandle {
  /** host:port,host:port,… as REDIS_CLUSTER_NODES takes it. */
  readonly nodes: string;
  readonly servers: readonly RedisServerHandle[];
  /** Which master serves a slot, as `port`. */
  masterOfSlot(slot: number): Promise<number>;
  dispose(): Promise<void>;
}

/**
 * Runs `ask` on a short-lived loopback connection that neither retries nor queues; undefined when the
 * server cannot answer it (down, refusing, an error reply).
 */
async function probe<T>(port: number, ask: (redis: Redis) => Promise<T>): Promise<T | undefined> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await ask(redis);
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

const clusterStateOk = async (port: number): Promise<boolean> =>
  (await probe(port, async (redis) => /cluster_state:ok/.test(String(await redis.call('CLUSTER', 'INFO'))))) ?? false;

export async function startRedisCluster(masters = 3): Promise<RedisClusterHandle> {
  const servers = await Promise.all(
    Array.from({ length: masters }, () =>
      startRedisServer({ args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000'] }),
    ),
  );
  const addresses = servers.map((s) => `127.0.0.1:${s.port}`);
  const created = spawnSync('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], {
    encoding: 'utf8',
  });
  if (created.status !== 0) {
    await Promise.all(servers.map((s) => s.dispose()));
    throw new Error(`redis-cli --cluster create failed: ${created.stderr || created.stdout}`);
  }
  await waitUntil(async () => (await Promise.all(servers.map((s) => clusterStateOk(s.port)))).every(Boolean), 20_000);
  return {
    nodes: addresses.join(','),
    servers,
    async masterOfSlot(slot) {
      const probe = new Redis({ port: servers[0]!.port, host: '127.0.0.1' });
      try {
        const ranges = (await probe.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
        const range = ranges.find(([from, to]) => slot >= from && slot <= to);
        if (!range) throw new Error(`no master serves slot ${slot}`);
        return range[2][1];
      } finally {
        probe.disconnect();
      }
    },
    dispose: async () => {
      await Promise.all(servers.map((s) => s.dispose()));
    },
  };
}

/** A master and one replica in sync, on loopback (no sentinel): WAIT tests stop and start the replica. */
export interface RedisReplicaPairHandle {
  readonly master: RedisServerHandle;
  readonly replica: RedisServerHandle;
  /** Resolves once the replica's link to the master is up and its initial sync done. */
  inSync(timeoutMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

/** A replica of `master`, syncing without the diskless-sync delay (Redis waits 5 s for more replicas by default). */
const startReplicaOf = (master: RedisServerHandle): Promise<RedisServerHandle> =>
  startRedisServer({ args: ['--replicaof', '127.0.0.1', String(master.port), '--repl-diskless-sync-delay', '0'] });

export async function startRedisReplicaPair(): Promise<RedisReplicaPairHandle> {
  // No diskless-sync delay: the replica is in sync at once.
  const master = await startRedisServer({ args: ['--repl-diskless-sync-delay', '0'] });
  const replica = await startReplicaOf(master);
  const inSync = (timeoutMs = 20_000): Promise<void> =>
    waitUntil(
      async () =>
        (await probe(replica.port, async (redis) => {
          const info = await redis.info('replication');
          return /master_link_status:up/.test(info) && !/master_sync_in_progress:1/.test(info);
        })) ?? false,
      timeoutMs,
    );
  await inSync();
  return {
    master,
    replica,
    inSync,
    dispose: async () => {
      await Promise.all([master.dispose(), replica.dispose()]);
    },
  };
}

/** A master, one replica (or more) and three sentinels on loopback, watching the group `name`. */
export interface RedisSentinelHandle {
  readonly name: string;
  /** host:port,… as REDIS_SENTINELS takes it. */
  readonly sentinels: string;
  readonly master: RedisServerHandle;
  readonly replica: RedisServerHandle;
  /** Every replica (the first is `replica`). */
  readonly replicas: readonly RedisServerHandle[];
  /** The port of the master the sentinels name now. */
  currentMasterPort(): Promise<number>;
  dispose(): Promise<void>;
}

export async function startRedisSentinel(name = 'dialog-relay', replicaCount = 1): Promise<RedisSentinelHandle> {
  const { master, replica } = await startRedisReplicaPair();
  const more = await Promise.all(Array.from({ length: replicaCount - 1 }, () => startReplicaOf(master)));
  const replicas = [replica, ...more];
  const sentinels = await Promise.all(
    Array.from({ length: 3 }, () =>
      startRedisServer({
        args: ['--sentinel'],
        configFile: (port) =>
          [
            `port ${port}`,
            `sentinel monitor ${name} 127.0.0.1 ${master.port} 2`,
            `sentinel down-after-milliseconds ${name} 1000`,
            `sentinel failover-timeout ${name} 5000`,
            `sentinel parallel-syncs ${name} 1`,
            '',
          ].join('\n'),
      }),
    ),
  );
  const ask = async (): Promise<number> => {
    for (const sentinel of sentinels) {
      const port = await probe(sentinel.port, async (redis) => {
        const [, masterPort] = (await redis.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as [string, string];
        return Number(masterPort);
      });
      if (port !== undefined) return port; // else try the next sentinel
    }
    throw new Error('no sentinel answered');
  };
  // Ready once every sentinel knows the replica and the other sentinels.
  await waitUntil(async () => {
    const counts = await Promise.all(
      sentinels.map(
        async (sentinel) =>
          (await probe(sentinel.port, async (redis) => {
            const info = (await redis.call('SENTINEL', 'MASTER', name)) as string[];
            const field = (key: string): number => Number(info[info.indexOf(key) + 1]);
            return field('num-slaves') >= replicaCount && field('num-other-sentinels') >= 2;
          })) ?? false,
      ),
    );
    return counts.every(Boolean);
  }, 20_000);
  return {
    name,
    sentinels: sentinels.map((s) => `127.0.0.1:${s.port}`).join(','),
    master,
    replica,
    replicas,
    currentMasterPort: ask,
    dispose: async () => {
      await Promise.all([...sentinels, master, ...replicas].map((s) => s.dispose()));
    },
  };
}
