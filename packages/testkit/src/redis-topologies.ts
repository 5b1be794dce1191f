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

async function clusterStateOk(port: number): Promise<boolean> {
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return /cluster_state:ok/.test(String(await probe.call('CLUSTER', 'INFO')));
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

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

export async function startRedisReplicaPair(): Promise<RedisReplicaPairHandle> {
  // No diskless-sync delay: the replica is in sync at once (Redis waits 5 s for more replicas by default).
  const master = await startRedisServer({ args: ['--repl-diskless-sync-delay', '0'] });
  const replica = await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(master.port), '--repl-diskless-sync-delay', '0'] });
  const inSync = (timeoutMs = 20_000): Promise<void> =>
    waitUntil(async () => {
      const probe = new Redis({
        port: replica.port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        const info = await probe.info('replication');
        return /master_link_status:up/.test(info) && !/master_sync_in_progress:1/.test(info);
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    }, timeoutMs);
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
  const more = await Promise.all(
    Array.from({ length: replicaCount - 1 }, () =>
      startRedisServer({ args: ['--replicaof', '127.0.0.1', String(master.port), '--repl-diskless-sync-delay', '0'] }),
    ),
  );
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
      const probe = new Redis({
        port: sentinel.port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        const [, port] = (await probe.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as [string, string];
        return Number(port);
      } catch {
        // try the next sentinel
      } finally {
        probe.disconnect();
      }
    }
    throw new Error('no sentinel answered');
  };
  // Ready once every sentinel knows the replica and the other sentinels.
  await waitUntil(async () => {
    const counts = await Promise.all(
      sentinels.map(async (sentinel) => {
        const probe = new Redis({
          port: sentinel.port,
          host: '127.0.0.1',
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          const info = (await probe.call('SENTINEL', 'MASTER', name)) as string[];
          const field = (key: string): number => Number(info[info.indexOf(key) + 1]);
          return field('num-slaves') >= replicaCount && field('num-other-sentinels') >= 2;
        } catch {
          return false;
        } finally {
          probe.disconnect();
        }
      }),
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
