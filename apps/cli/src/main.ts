#!/usr/bin/env node
import { createClientStore } from '@dialog-relay/clients';
import { ConfigError, loadConfig, SERVICE_VERSION, type Config } from '@dialog-relay/config';
import { createReplyServices } from '@dialog-relay/replies';
import {
  checkShardCount,
  createRedis,
  createRedisKeys,
  ShardCountMismatchError,
  waitForRedis,
  type Redis,
  type RedisKeys,
  subscriberOpener,
} from '@dialog-relay/redis';
import { clientsCommand, serviceEnvClientIds } from './commands/clients.command.js';
import { conversationCommand } from './commands/conversation.command.js';
import { deadLettersCommand } from './commands/dead-letters.command.js';
import { deliveriesCommand } from './commands/deliveries.command.js';
import { listenCommand } from './commands/listen.command.js';
import { sendTestCommand } from './commands/send-test.command.js';
import { shardsCommand } from './commands/shards.command.js';
import { signOutput } from './commands/sign.command.js';
import { output, UsageError, type Output, type Printer } from './output.js';
import { asksForHelp, integerOption, parseArgs } from './parse-args.js';
import { CLIENT_RECORD_ENV, commandHelp, SCHEME_CHOICES, SECRET_ENV, WEBHOOK_SECRET_ENV } from './command-help.js';
import { readStdin, resolveSecret } from './secret-input.js';

const USAGE = `dialog-relay CLI (--version prints the release's version; add --json to any command for JSON output; --help prints this,
<command> --help that command's usage; exit code 0 only on success, 2 on a usage error)
  sign --client ID --secret S [--scheme ${SCHEME_CHOICES}] [--event assist_dialog] [--content TEXT] [--send-url URL]
       [--from ID] [--to ID] [--msg-id ID] [--group ID] [--url URL]
  listen --secret WHSEC [--port 9999] [--host 127.0.0.1] [--count N] [--tolerance 300]
  send-test URL --secret WHSEC [--client demo] [--at UNIX_SECONDS] [--timeout-ms 10000]
  deliveries list --conversation ID | --client ID [--limit 20] | show <delivery_id>
  conversation status|stop|resume <conversation_id>
  clients list | add <id> <json>|--record-stdin | remove <id>
  dead-letters list [limit] | replay <delivery_id>   (kept DEAD_LETTER_TTL_S, 30 days, from death or replay)
  shards migrate   (after a QUEUE_SHARDS change: docs/design/scaling.md)
deliveries, conversation, clients, dead-letters and shards use the services' Redis variables (REDIS_URL or
REDIS_CLUSTER_NODES or REDIS_SENTINELS, REDIS_PREFIX, QUEUE_SHARDS). Exit code 78: bad configuration,
or QUEUE_SHARDS differs from the count the data in Redis was written with.
Secrets need not be arguments (visible in ps): --secret-stdin (the first line of stdin) or ${SECRET_ENV} for sign,
${WEBHOOK_SECRET_ENV} for listen and send-test; clients add --record-stdin or ${CLIENT_RECORD_ENV}.`;

/** A secret option of a command: the argument, --secret-stdin or the environment variable. */
const secretOf = (
  values: { secret?: string | undefined; 'secret-stdin'?: boolean | undefined },
  envName: string,
): Promise<string | undefined> =>
  resolveSecret({
    option: '--secret',
    argument: values.secret,
    fromStdin: values['secret-stdin'] === true,
    stdinOption: '--secret-stdin',
    envName,
    env: process.env,
    read: () => readStdin(process.stdin, true),
  });
const SECRET_OPTIONS = { secret: { type: 'string' }, 'secret-stdin': { type: 'boolean' } } as const;

async function run(argv: string[], print: Printer): Promise<Output> {
  if (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version') return output(SERVICE_VERSION, { version: SERVICE_VERSION });
  if (asksForHelp(argv)) {
    const usage = commandHelp(argv[0] === 'help' ? argv.slice(1) : argv) ?? USAGE;
    return output(usage, { usage });
  }
  const [group, ...rest] = argv;
  switch (group) {
    case 'sign': {
      const { values } = parseArgs({
        args: rest,
        options: {
          client: { type: 'string' },
          ...SECRET_OPTIONS,
          scheme: { type: 'string', default: 'hmac-sha256' },
          event: { type: 'string', default: 'assist_dialog' },
          content: { type: 'string', default: 'When are you open?' },
          'send-url': { type: 'string' },
          from: { type: 'string', default: 'customer-1' },
          to: { type: 'string', default: 'bot-1' },
          'msg-id': { type: 'string' },
          group: { type: 'string' },
          url: { type: 'string', default: process.env['DIALOG_RELAY_URL'] || 'http://127.0.0.1:8080' },
        },
      });
      const secret = await secretOf(values, SECRET_ENV);
      if (!values.client || !secret) throw new UsageError(`sign needs --client and a secret: --secret, --secret-stdin or ${SECRET_ENV}`);
      return signOutput({
        client: values.client,
        secret,
        scheme: values.scheme,
        event: values.event,
        content: values.content,
        sendUrl: values['send-url'],
        from: values.from,
        to: values.to,
        url: values.url,
        msgId: values['msg-id'],
        group: values.group,
        nowS: Math.floor(Date.now() / 1000),
      });
    }
    case 'listen': {
      const { values } = parseArgs({
        args: rest,
        options: {
          ...SECRET_OPTIONS,
          host: { type: 'string', default: '127.0.0.1' },
          port: { type: 'string', default: '9999' },
          count: { type: 'string' },
          tolerance: { type: 'string', default: '300' },
        },
      });
      const secret = await secretOf(values, WEBHOOK_SECRET_ENV);
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      process.once('SIGTERM', () => controller.abort());
      return listenCommand({
        secret: secret ?? '',
        host: values.host,
        port: integerOption('--port', values.port, 9999, 0, 65535),
        count: values.count === undefined ? undefined : integerOption('--count', values.count, 1, 1),
        toleranceS: integerOption('--tolerance', values.tolerance, 300),
        print,
        signal: controller.signal,
      });
    }
    case 'send-test': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          ...SECRET_OPTIONS,
          client: { type: 'string', default: 'demo' },
          at: { type: 'string' },
          'timeout-ms': { type: 'string', default: '10000' },
        },
      });
      const [url] = positionals;
      const secret = await secretOf(values, WEBHOOK_SECRET_ENV);
      if (!url || !secret) throw new UsageError(`usage: send-test URL (--secret WHSEC | --secret-stdin | ${WEBHOOK_SECRET_ENV})`);
      return sendTestCommand({
        url,
        secret,
        client: values.client,
        atS: integerOption('--at', values.at, Math.floor(Date.now() / 1000)),
        timeoutMs: integerOption('--timeout-ms', values['timeout-ms'], 10_000, 1),
      });
    }
    case 'clients': {
      const args = await clientArgs(rest);
      return withRedis(false, (deps) => redisCommand(group, args, deps));
    }
    case 'shards':
      // Runs where the recorded count differs from QUEUE_SHARDS: that is what it is for.
      return withRedis(false, ({ redis, keys }) => shardsCommand({ redis, keys }, rest));
    case 'dead-letters':
    case 'deliveries':
    case 'conversation':
      return withRedis(true, (deps) => redisCommand(group, rest, deps));
    case undefined:
    default:
      throw new UsageError(USAGE);
  }
}

/** `clients add <id>` with its record from stdin (--record-stdin) or DIALOG_RELAY_CLIENT_RECORD: the arguments as if it were given. */
async function clientArgs(args: string[]): Promise<string[]> {
  const [action, id, ...others] = args;
  if (action !== 'add' || id === undefined) return args;
  const fromStdin = others.includes('--record-stdin');
  const argument = others.filter((arg) => arg !== '--record-stdin')[0];
  const record = await resolveSecret({
    option: '<json>',
    argument,
    fromStdin,
    stdinOption: '--record-stdin',
    envName: CLIENT_RECORD_ENV,
    env: process.env,
    read: () => readStdin(process.stdin, false),
  });
  return record === undefined ? [action, id] : [action, id, record];
}

interface RedisDeps {
  config: Config;
  redis: Redis;
  keys: RedisKeys;
}

/** Runs a command on the services' Redis; one that touches shard keys first checks QUEUE_SHARDS against the recorded count. */
async function withRedis(touchesShards: boolean, command: (deps: RedisDeps) => Promise<Output>): Promise<Output> {
  const config = loadConfig(process.env);
  const keys = createRedisKeys(config.redisPrefix, config.redis.shards);
  // no auto-pipelining: one command at a time, and BullMQ's queues define their scripts on it
  const redis = createRedis(config.redis, 'request', { name: 'dialog-relay-cli', commandTimeoutMs: 10_000 });
  redis.on('error', () => undefined);
  try {
    await waitForRedis(redis, 5000);
    if (touchesShards) await checkShardCount(redis, keys.shardCount, keys.shards, 'read');
    return await command({ config, redis, keys });
  } finally {
    redis.disconnect();
  }
}

async function redisCommand(
  group: 'clients' | 'dead-letters' | 'deliveries' | 'conversation',
  args: string[],
  { config, redis, keys }: RedisDeps,
): Promise<Output> {
  if (group === 'clients') {
    return clientsCommand(createClientStore({ redis, keys, defaultRateLimitPerS: config.defaultRateLimitPerS }), args, {
      defaultRateLimitPerS: config.defaultRateLimitPerS,
      allowPrivateSendUrls: config.allowPrivateSendUrls,
      envClientIds: serviceEnvClientIds(config.clients, process.env),
    });
  }
  const replies = createReplyServices(config, {
    keys,
    redis,
    openSubscriber: subscriberOpener(config.redis, 'dialog-relay-cli-signals'),
  });
  try {
    switch (group) {
      case 'deliveries':
        return await deliveriesCommand({ deliveries: replies.deliveries, redis, keys }, args);
      case 'dead-letters':
        return await deadLettersCommand(
          {
            deliveries: replies.deliveries,
            jobs: replies.jobs,
            shardOfDelivery: keys.shardOfDelivery,
            replyMaxAgeMs: config.replyMaxAgeMs,
          },
          args,
        );
      case 'conversation':
        return await conversationCommand(replies.autoReplies, args);
    }
  } finally {
    await replies.close();
  }
}

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const print: Printer = (text, value) => process.stdout.write(`${json ? JSON.stringify(value) : text}\n`);

run(
  argv.filter((a) => a !== '--json'),
  print,
).then(
  (result) => {
    print(result.text, result.json);
    if (result.warning !== undefined && !json) process.stderr.write(`${result.warning}\n`);
    process.exitCode = result.ok ? 0 : 1;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const usage = error instanceof UsageError && error.showUsage ? USAGE : undefined;
    if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: message, ...(usage === undefined ? {} : { usage }) })}\n`);
    else process.stderr.write(`${message}\n${usage === undefined ? '' : `${usage}\n`}`);
    // 78 (EX_CONFIG) like the API and the worker: a bad variable, or a QUEUE_SHARDS the data was not written with.
    process.exitCode = error instanceof UsageError ? 2 : error instanceof ConfigError || error instanceof ShardCountMismatchError ? 78 : 1;
  },
);
