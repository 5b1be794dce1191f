import { redisServerInstalled, startRedisServer, type RedisServerHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/**
 * docs/design/reply-protocol.md (a turn BullMQ gives up on): Redis away longer than a turn job's lock, with
 * WORKER_MAX_STALLED_COUNT 0, makes BullMQ give the job up for stalling once Redis is back, without
 * running it. The turn is handed back as due and answered: the customer sends nothing more.
 */
describe('a turn job BullMQ gives up on for stalling while Redis is away', function () {
  this.timeout(90_000);
  let server: RedisServerHandle;
  let system: System;
  let receiver: Receiver;
  before(async () => {
    if (!redisServerInstalled()) throw new Error('this test stops its own redis-server: install redis-server');
    server = await startRedisServer({ args: ['--appendonly', 'yes', '--appendfsync', 'always'] });
    receiver = await startReceiver();
    system = await startSystem({
      workers: 1,
      env: { REDIS_URL: server.url, WORKER_MAX_STALLED_COUNT: '0', WORKER_LOCK_MS: '3000', WORKER_STALLED_INTERVAL_MS: '500' },
    });
  });
  after(async () => {
    await system?.close();
    await receiver?.close();
    await server?.dispose();
  });

  it('answers the waiting message once Redis is back', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first POST is held while Redis stops, then refused: the reply has not arrived yet.
    receiver.respond(async (_r, index, res) => {
      if (index === 0) {
        await held;
        res.writeHead(503).end('busy');
      } else {
        res.writeHead(200).end('ok');
      }
    });
    const sent = await system.send(
      { from_user_id: 'stall-customer', to_user_id: 'bound', content: 'where is my order?', msg_id: `stall-${Date.now()}` },
      { send_url: receiver.url },
    );
    expect(sent.status).to.equal(202);
    const msgId = sent.json.data!['msg_id'] as string;
    await receiver.waitFor(1);
    await server.stop();
    release();
    // The fault itself is a length of time: Redis stays away past the job's lock (3 s), so the
    // stalled-job check that runs once it is back finds the lock gone.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    await server.start();
    const requests = await receiver.waitFor(2, 45_000);
    expect(requests[1]!.body.in_reply_to).to.deep.equal([msgId]);
    expect(requests[1]!.body.delivery_id).to.equal(requests[0]!.body.delivery_id);
  });
});
