import { createClientStore } from '@dialog-relay/clients';
import { loadConfig } from '@dialog-relay/config';
import { createDeliveryRecords, createReplyQueue } from '@dialog-relay/queue';
import { createRedisKeys, createRequestRedis, waitForRedis } from '@dialog-relay/redis';
import { parseArgs } from 'node:util';
import { clientsCommand } from './commands/clients.command.js';
import { deadLettersCommand } from './commands/dead-letters.command.js';
import { signCommand } from './commands/sign.command.js';

const USAGE = `dialog-relay operator CLI
  sign --client ID --secret S [--scheme hmac-sha256|md5] [--event assist_dialog] [--content TEXT] [--send-url URL] [--url http://127.0.0.1:8080]
  clients list | add <id> <json> | remove <id>
  dead-letters list [limit] | replay <delivery_id>
Redis and prefix come from REDIS_URL and REDIS_PREFIX, as for the services.`;

async function main(argv: string[]): Promise<string> {
  const [group, ...rest] = argv;
  if (group === 'sign') {
    const { values } = parseArgs({ args: rest, options: {
      client: { type: 'string' }, secret: { type: 'string' }, scheme: { type: 'string', default: 'hmac-sha256' },
      event: { type: 'string', default: 'assist_dialog' }, content: { type: 'string', default: 'When are you open?' },
      'send-url': { type: 'string' }, from: { type: 'string', default: 'customer-1' }, to: { type: 'string', default: 'bot-1' },
      url: { type: 'string', default: 'http://127.0.0.1:8080' },
    } });
    if (!values.client || !values.secret) throw new Error('sign needs --client and --secret');
    return signCommand({ client: values.client, secret: values.secret, scheme: values.scheme, event: values.event, content: values.content,
      sendUrl: values['send-url'], from: values.from, to: values.to, url: values.url, nowS: Math.floor(Date.now() / 1000) });
  }
  if (group !== 'clients' && group !== 'dead-letters') return USAGE;
  const config = loadConfig(process.env);
  const keys = createRedisKeys(config.redisPrefix);
  const redis = createRequestRedis(config.redisUrl, { name: 'dialog-relay-cli', commandTimeoutMs: 10_000 });
  redis.on('error', () => undefined);
  try {
    await waitForRedis(redis, 5000);
    if (group === 'clients') return await clientsCommand(createClientStore({ redis, keys, defaultRateLimitPerS: config.defaultRateLimitPerS }), rest, config.defaultRateLimitPerS);
    const queue = createReplyQueue(redis, keys.bullPrefix);
    try {
      return await deadLettersCommand({ deliveries: createDeliveryRecords({ redis, keys, ttlS: config.context.ttlS }), queue, replyMaxAgeMs: config.replyMaxAgeMs }, rest);
    } finally {
      await queue.close();
    }
  } finally {
    redis.disconnect();
  }
}

main(process.argv.slice(2)).then(
  (output) => process.stdout.write(`${output}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
