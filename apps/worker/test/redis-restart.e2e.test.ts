import { redisServerInstalled, startRedisServer, type RedisServerHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

describe('Redis restarting under a running worker', function () {
  let server: RedisServerHandle;
  let system: System;
  let receiver: Receiver;
  before(async () => {
    if (!redisServerInstalled()) throw new Error('this test restarts its own redis-server: install redis-server');
    server = await startRedisServer();
    receiver = await startReceiver();
    system = await startSystem({ workers: 1, env: { REDIS_URL: server.url } });
  });
  after(async () => {
    await system.close();
    await receiver.close();
    await server.dispose();
  });

  it('keeps serving: the worker reconnects and delivers replies queued after the restart', async function () {
    this.timeout(60_000);
    await system.send({ from_user_id: 'restart-customer', to_user_id: 'bound', content: 'before' }, { send_url: receiver.url });
    await receiver.waitFor(1);
    await server.stop();
    const during = await system.send(
      { from_user_id: 'restart-customer', to_user_id: 'bound', content: 'while down' },
      { send_url: receiver.url },
    );
    expect(during.status).to.equal(503);
    await server.start();
    await system.api.ready(10_000);
    const after = await system.send(
      { from_user_id: 'restart-customer-2', to_user_id: 'bound', content: 'after', msg_id: `after-${Date.now()}` },
      { send_url: receiver.url },
    );
    expect(after.status, JSON.stringify(after.json)).to.equal(202);
    const requests = await receiver.waitFor(2, 40_000);
    expect(requests[1]!.body.in_reply_to).to.deep.equal([after.json.data!['msg_id']]);
    expect(system.workers[0]!.child.exitCode).to.equal(null);
  });
});
