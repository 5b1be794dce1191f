import { createDeliveryStore, type DeliveryRecord, type DeliveryStore } from '@dialog-relay/replies';
import { loadConfig } from '@dialog-relay/config';
import { createRedis, createRedisKeys, waitForRedis, type Redis } from '@dialog-relay/redis';
import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { runCli } from './support/run-cli.js';

describe('cli deliveries and conversation (on Redis, as a process)', () => {
  let redis: Redis;
  let deliveries: DeliveryStore;
  let env: Record<string, string>;
  before(async () => {
    redis = createRedis(loadConfig(testRedisEnv()).redis, 'request', { name: 'cli-deliveries-test' });
    await waitForRedis(redis, 5000);
  });
  beforeEach(() => {
    // One shard: the test's readable delivery ids (no shard suffix) then share the conversations' slot on a cluster.
    env = { ...testRedisEnv(), REDIS_PREFIX: uniquePrefix('cli-deliveries'), QUEUE_SHARDS: '1' };
    deliveries = createDeliveryStore({ redis, keys: createRedisKeys(env['REDIS_PREFIX']!, 1), ttlS: 3600, deadLetterTtlS: 86_400 });
  });
  after(() => redis.disconnect());

  const record = (deliveryId: string, client = 'acme', conversation = 'c_one'): DeliveryRecord => ({
    delivery_id: deliveryId,
    conversation_id: conversation,
    client,
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
  });
  const seed = async (): Promise<void> => {
    await deliveries.create(record('dlv_01_a'));
    await deliveries.appendAttempt('dlv_01_a', {
      attempt: 1,
      at: '2023-11-14T22:13:20.000Z',
      status: 503,
      latency_ms: 41,
      error: null,
      response_body: 'busy',
    });
    await deliveries.appendAttempt('dlv_01_a', {
      attempt: 2,
      at: '2023-11-14T22:13:21.000Z',
      status: 200,
      latency_ms: 12,
      error: null,
      response_body: 'ok',
    });
    await deliveries.setState('dlv_01_a', 'delivered');
    await deliveries.create(record('dlv_02_b', 'other', 'c_two'));
    await deliveries.create(record('dlv_03_c', 'acme', 'c_three'));
  };

  it("lists a conversation's deliveries with every attempt and the receiver's answers", async () => {
    await seed();
    const text = await runCli(['deliveries', 'list', '--conversation', 'c_one'], env);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout.split('\n')).to.include.members([
      'dlv_01_a\tstate=delivered\tconversation=c_one\tclient=acme\tsend_url=https://hooks.example/acme\tin_reply_to=m-1',
      '  #1 2023-11-14T22:13:20.000Z status=503 41ms  answer="busy"',
    ]);
    const json = JSON.parse((await runCli(['deliveries', 'list', '--conversation', 'c_one', '--json'], env)).stdout) as {
      deliveries: { delivery_id: string; attempts: { status: number; response_body: string }[] }[];
    };
    expect(json.deliveries.map((d) => d.delivery_id)).to.deep.equal(['dlv_01_a']);
    expect(json.deliveries[0]!.attempts.map((a) => [a.status, a.response_body])).to.deep.equal([
      [503, 'busy'],
      [200, 'ok'],
    ]);
  });

  it("lists a client's deliveries, newest first", async () => {
    await seed();
    const json = JSON.parse((await runCli(['deliveries', 'list', '--client', 'acme', '--json'], env)).stdout) as {
      deliveries: { delivery_id: string }[];
    };
    expect(json.deliveries.map((d) => d.delivery_id)).to.deep.equal(['dlv_03_c', 'dlv_01_a']);
  });

  it('shows one delivery with its exact body, and exits 1 for an unknown one', async () => {
    await seed();
    const shown = await runCli(['deliveries', 'show', 'dlv_01_a', '--json'], env);
    expect(shown.code).to.equal(0);
    const { delivery } = JSON.parse(shown.stdout) as { delivery: { payload: string; state: string; attempts: unknown[] } };
    expect(delivery).to.include({ payload: '{"type":"auto_dialog.reply"}', state: 'delivered' });
    expect(delivery.attempts).to.have.length(2);
    const missing = await runCli(['deliveries', 'show', 'dlv_missing', '--json'], env);
    expect(missing.code).to.equal(1);
    expect(JSON.parse(missing.stdout)).to.include({ delivery: null });
  });

  it('refuses a list without --conversation or --client with exit code 2', async () => {
    expect((await runCli(['deliveries', 'list'], env)).code).to.equal(2);
  });

  it("stops, reports and resumes a conversation's auto replies", async () => {
    const stop = await runCli(['conversation', 'stop', 'c_cli', '--json'], env);
    expect(stop.code, stop.stderr).to.equal(0);
    expect(JSON.parse(stop.stdout)).to.deep.equal({ conversation_id: 'c_cli', auto_reply: 'stopped', cancelled: 0 });
    const stopped = JSON.parse((await runCli(['conversation', 'status', 'c_cli', '--json'], env)).stdout) as Record<string, unknown>;
    expect(stopped).to.deep.include({ conversation_id: 'c_cli', auto_reply: 'stopped', pending: [], deliveries: [] });
    expect((await runCli(['conversation', 'resume', 'c_cli'], env)).stdout).to.equal('resumed c_cli\n');
    const active = await runCli(['conversation', 'status', 'c_cli'], env);
    expect(active.stdout).to.match(/^c_cli\tauto_reply=active/);
  });
});
