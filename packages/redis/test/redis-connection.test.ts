import { expect } from 'chai';
import { testRedisUrl } from '@dialog-relay/testkit';
import { createRedis, type Redis } from '../src/index.js';

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

  it('speaks RESP2 as ioredis 5 did (ioredis 6 defaults to RESP3)', async () => {
    const redis = open();
    const info = await redis.client('INFO');
    expect(String(info)).to.match(/ resp=2\b/);
  });
});
