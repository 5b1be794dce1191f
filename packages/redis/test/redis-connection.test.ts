import { expect } from 'chai';
import { testRedisUrl } from '@dialog-relay/testkit';
import { createRedis, waitForRedis, type Redis } from '../src/index.js';

describe('redis connections', () => {
  const opened: Redis[] = [];
  const open = (autoPipelining?: boolean): Redis => {
    const redis = createRedis({ target: { mode: 'single', url: testRedisUrl() }, password: undefined, tls: false }, 'worker', {
      name: 'test-connection',
      ...(autoPipelining === undefined ? {} : { autoPipelining }),
    });
    opened.push(redis);
    return redis;
  };
  after(() => opened.forEach((redis) => redis.disconnect()));

  it('auto-pipelines a worker connection only when asked (BullMQ connections block and must not be)', async () => {
    const commands = open(true);
    const bullmq = open();
    expect(commands.options.enableAutoPipelining).to.equal(true);
    expect(bullmq.options.enableAutoPipelining).to.not.equal(true);
    const answers = await Promise.all([commands.ping('a'), commands.ping('b'), commands.echo('c')]);
    expect(answers).to.deep.equal(['a', 'b', 'c']);
  });

  /**
   * An auto-pipelined batch is an ioredis Pipeline, and every Pipeline copies each script defined on
   * its connection (BullMQ defines 64 on the connection it is given): 2-3 us per batch with none,
   * 26-28 us with BullMQ's. The API's request connection carried them, so each of its commands paid
   * that when the load was light enough for one command per batch (docs/design/performance-log.md, sixth session).
   */
  it('refuses a defined script on an auto-pipelined connection, which would copy it into every batch', async () => {
    const config = { target: { mode: 'single' as const, url: testRedisUrl() }, password: undefined, tls: false };
    const script = { numberOfKeys: 0, lua: 'return 1' };
    const request = createRedis(config, 'request', { name: 'test-request', autoPipelining: true });
    const commands = open(true);
    const queues = createRedis(config, 'request', { name: 'test-queues' });
    opened.push(request, queues);
    for (const pipelined of [request, commands]) expect(() => pipelined.defineCommand('answer', script)).to.throw(/auto-pipelin/);
    queues.defineCommand('answer', script);
    expect(queues.options.enableAutoPipelining).to.not.equal(true);
    await Promise.all([waitForRedis(queues, 5000), waitForRedis(request, 5000)]); // no offline queue: ready first
    expect(await (queues as unknown as { answer(): Promise<number> }).answer()).to.equal(1);
    expect(await request.ping()).to.equal('PONG');
  });

  it("does not auto-pipeline the API's request connection unless asked (each batch's accessor is allocated old)", () => {
    const config = { target: { mode: 'single' as const, url: testRedisUrl() }, password: undefined, tls: false };
    const request = createRedis(config, 'request', { name: 'test-request-default' });
    opened.push(request);
    expect(request.options.enableAutoPipelining).to.not.equal(true);
  });

  it('speaks RESP2 as ioredis 5 did (ioredis 6 defaults to RESP3)', async () => {
    const redis = open();
    const info = await redis.client('INFO');
    expect(String(info)).to.match(/ resp=2\b/);
  });
});
