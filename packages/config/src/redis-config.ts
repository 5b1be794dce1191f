import { ConfigError, readBool, readInt, readOptionalString, readUrl, type Env } from './env-readers.js';

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

/** Which Redis to use (docs/service-rules.md §13): one server, a cluster, or a master found through Sentinel. */
export type RedisTarget =
  | { readonly mode: 'single'; readonly url: string }
  | { readonly mode: 'cluster'; readonly nodes: readonly HostPort[] }
  | { readonly mode: 'sentinel'; readonly sentinels: readonly HostPort[]; readonly name: string };

export interface RedisConfig {
  readonly target: RedisTarget;
  readonly password: string | undefined;
  readonly tls: boolean;
  /** BullMQ queues (and hash tags) replies are spread over; recorded in Redis, a change refuses to start. */
  readonly shards: number;
  /** Replicas that must have an accepted message before the API answers 202 (WAIT); 0 = do not wait. */
  readonly waitReplicas: number;
  readonly waitTimeoutMs: number;
}

function readHostPorts(env: Env, name: string): readonly HostPort[] {
  const raw = readOptionalString(env, name) ?? '';
  const nodes = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(part);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) {
        // An entry written as a URL may hold a password before its "@": only what follows is quoted.
        const shown = part.includes('@') ? `***@${part.slice(part.lastIndexOf('@') + 1)}` : part;
        throw new ConfigError(
          name,
          `expected host:port[,host:port…], got "${shown}"${part.includes('@') ? ' (a password goes in REDIS_PASSWORD)' : ''}`,
        );
      }
      return Object.freeze({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
    });
  if (nodes.length === 0) throw new ConfigError(name, 'expected at least one host:port');
  return Object.freeze(nodes);
}

/** Parses the Redis variables; two modes at once stop start-up naming both. */
export function readRedisConfig(env: Env): RedisConfig {
  const given = (['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'] as const).filter(
    (name) => readOptionalString(env, name) !== undefined,
  );
  if (given.length > 1) {
    const named =
      given.length === 2
        ? `${given[0]} and ${given[1]} are both set`
        : `${given.slice(0, -1).join(', ')} and ${given[given.length - 1]} are all set`;
    throw new ConfigError(given.join(', '), `choose one Redis mode: ${named}`);
  }
  let target: RedisTarget;
  if (given[0] === 'REDIS_CLUSTER_NODES') {
    target = { mode: 'cluster', nodes: readHostPorts(env, 'REDIS_CLUSTER_NODES') };
  } else if (given[0] === 'REDIS_SENTINELS') {
    const name = readOptionalString(env, 'REDIS_SENTINEL_NAME');
    if (name === undefined) throw new ConfigError('REDIS_SENTINEL_NAME', 'required with REDIS_SENTINELS (the master group name)');
    target = { mode: 'sentinel', sentinels: readHostPorts(env, 'REDIS_SENTINELS'), name };
  } else {
    target = { mode: 'single', url: readUrl(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']) };
  }
  const waitReplicas = readInt(env, 'REDIS_WAIT_REPLICAS', target.mode === 'sentinel' ? 1 : 0, 0, 16);
  // WAIT confirms what one master has replicated; an accepted message is written on two masters of a
  // cluster (client keys and conversation keys carry different tags), so it would confirm half of it.
  if (target.mode === 'cluster' && waitReplicas > 0) {
    throw new ConfigError(
      'REDIS_WAIT_REPLICAS',
      "must be 0 with REDIS_CLUSTER_NODES: a cluster spreads one message's writes over several masters, and WAIT confirms only one (docs/design/scaling.md)",
    );
  }
  const password = readOptionalString(env, 'REDIS_PASSWORD');
  // ioredis takes a password in REDIS_URL over its password option: the other would be ignored.
  if (password !== undefined && target.mode === 'single' && new URL(target.url).password !== '') {
    throw new ConfigError(
      'REDIS_PASSWORD',
      'REDIS_URL holds a password too, which Redis would be sent instead; give the password in one place',
    );
  }
  return Object.freeze({
    target: Object.freeze(target),
    password,
    tls: readBool(env, 'REDIS_TLS', false),
    shards: readInt(env, 'QUEUE_SHARDS', 16, 1, 1024),
    waitReplicas,
    waitTimeoutMs: readInt(env, 'REDIS_WAIT_TIMEOUT_MS', 500, 10, 10_000),
  });
}

/** Where Redis is, for messages: no password (in the user info, even with an "@" in it, or as a query option). */
export function describeRedisTarget(target: RedisTarget): string {
  switch (target.mode) {
    case 'single': {
      const url = new URL(target.url); // readUrl accepted it
      const auth = url.username !== '' || url.password !== '' ? '***@' : '';
      return `${url.protocol}//${auth}${url.host}${url.pathname === '/' ? '' : url.pathname}${url.search === '' ? '' : '?…'}`;
    }
    case 'cluster':
      return `cluster ${target.nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
    case 'sentinel':
      return `sentinel ${target.name} via ${target.sentinels.map((n) => `${n.host}:${n.port}`).join(',')}`;
  }
}
