import { expect } from 'chai';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';
import { waitUntil } from '@dialog-relay/testkit';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('stale replies and stop_auto_reply (two worker replicas)', function () {
  let system: System;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    system = await startSystem({
      workers: 2,
      env: { REPLY_MAX_AGE_MS: '2000', DELIVERY_BACKOFF_MS: '300', DELIVERY_MAX_BACKOFF_MS: '300', DELIVERY_MAX_ATTEMPTS: '100' },
    });
  });
  after(async () => {
    await system.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
  });

  let seq = 0;
  const pair = () => ({ from_user_id: `stop-customer-${++seq}`, to_user_id: 'bound-stop' });
  const deliveries = () => system.deliveries();

  it('dead-letters a stale reply instead of delivering it', async () => {
    receiver.respond((_r, _i, res) => res.writeHead(503).end());
    await system.send({ ...pair(), content: 'hello' }, { send_url: receiver.url });
    const [first] = await receiver.waitFor(1);
    const id = first!.body.delivery_id;
    await waitUntil(async () => (await deliveries().get(id))?.state === 'dead');
    expect((await deliveries().get(id))?.dead_reason).to.equal('stale');
    expect(receiver.requests.length).to.be.within(2, 99);
    expect(receiver.requests.every((r) => r.at - first!.at < 2000)).to.equal(true);
    expect((await deliveries().attempts(id)).length).to.equal(receiver.requests.length);
  });

  it('starts no delivery attempt after the stop answer while a delivery is retrying', async () => {
    receiver.respond((_r, _i, res) => res.writeHead(503).end());
    const who = pair();
    await system.send({ ...who, content: 'where is my parcel' }, { send_url: receiver.url });
    await receiver.waitFor(2);
    const stop = await system.command(who, 'stop_auto_reply');
    const answeredAt = Date.now();
    expect(stop.json.data).to.include({ auto_reply: 'stopped', cancelled: 1 });
    await pause(1000); // proving an absence: three backoff periods
    expect(receiver.requests.filter((r) => r.at > answeredAt)).to.deep.equal([]);
    const status = await system.command(who, 'auto_reply_status');
    const latest = (status.json.data!['deliveries'] as { state: string; attempts: unknown[] }[])[0];
    expect(latest?.state).to.equal('cancelled');
    expect(latest?.attempts.length).to.be.at.least(2);
  });

  it('delivers nothing after the answer when a burst of messages is followed by a stop, and replies again after resume', async () => {
    receiver.respond((_r, _i, res) => setTimeout(() => res.writeHead(200).end(), 100));
    const who = pair();
    for (let i = 0; i < 8; i++)
      await system.send({ ...who, content: `message ${i}`, msg_id: `burst-${seq}-${i}` }, { send_url: receiver.url });
    await receiver.waitFor(1);
    const stop = await system.command(who, 'stop_auto_reply');
    const answeredAt = Date.now();
    expect(stop.json.data).to.include({ auto_reply: 'stopped' });
    await pause(800);
    expect(receiver.requests.filter((r) => r.at > answeredAt)).to.deep.equal([]);
    const before = receiver.requests.length;
    expect(before).to.be.below(8);

    const suppressed = await system.send({ ...who, content: 'anyone?' }, { send_url: receiver.url });
    expect(suppressed.json.data).to.include({ status: 'suppressed' });
    await system.command(who, 'resume_auto_reply');
    const resumed = await system.send({ ...who, content: 'hello again', msg_id: `after-resume-${seq}` }, { send_url: receiver.url });
    expect(resumed.json.data).to.include({ status: 'queued' });
    const requests = await receiver.waitFor(before + 1);
    expect(requests[requests.length - 1]!.body.in_reply_to).to.deep.equal([`after-resume-${seq}`]);
  });
});
