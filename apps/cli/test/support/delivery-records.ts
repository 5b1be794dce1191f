import { loadConfig } from '@dialog-relay/config';
import { createRedis, createRedisKeys, waitForRedis, type Redis } from '@dialog-relay/redis';
import { createDeliveryStore, type DeliveryRecord, type DeliveryStore } from '@dialog-relay/replies';
import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';

/** A pending delivery record of client acme in conversation c_one; a test names the fields it looks at. */
export const deliveryRecord = (deliveryId: string, fields: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  delivery_id: deliveryId,
  conversation_id: 'c_one',
  client: 'acme',
  send_url: 'https://hooks.example/acme',
  in_reply_to: ['m-1'],
  state: 'pending',
  payload: '{"type":"auto_dialog.reply"}',
  reply_content: '[]',
  generation: 1,
  created_at_ms: 1_700_000_000_000,
  deadline_ms: 1_700_000_900_000,
  dead_reason: '',
  dead_detail: '',
  attempt_base: 0,
  ...fields,
});

export interface CliDeliveries {
  redis: Redis;
  /** The delivery store under the CLI's prefix, to seed records the CLI then reads. */
  deliveries: DeliveryStore;
  /** The CLI's environment: the test Redis, a fresh prefix per test, one shard. */
  env: Record<string, string>;
}

/**
 * Registers the hooks of a suite that seeds delivery records and runs the CLI over them: one Redis
 * connection for the suite, a fresh prefix (and store) per test. Read the fields inside tests only.
 */
export function cliDeliveries(name: string): CliDeliveries {
  const suite = {} as CliDeliveries;
  before(async () => {
    suite.redis = createRedis(loadConfig(testRedisEnv()).redis, 'request', { name: `${name}-test` });
    await waitForRedis(suite.redis, 5000);
  });
  beforeEach(() => {
    // One shard: the tests' readable delivery ids (no shard suffix) then share the conversations' slot on a cluster.
    suite.env = { ...testRedisEnv(), REDIS_PREFIX: uniquePrefix(name), QUEUE_SHARDS: '1' };
    suite.deliveries = createDeliveryStore({
      redis: suite.redis,
      keys: createRedisKeys(suite.env['REDIS_PREFIX']!, 1),
      ttlS: 3600,
      deadLetterTtlS: 86_400,
    });
  });
  after(() => suite.redis.disconnect());
  return suite;
}
