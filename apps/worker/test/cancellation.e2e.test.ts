import { expect } from 'chai';
import { suiteSystem } from './support/suite-system.js';
import { waitUntil } from '@dialog-relay/testkit';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('stale replies and stop_auto_reply (two worker replicas)', function () {
  const suite = suiteSystem({
    workers: 2,
    env: { REPLY_MAX_AGE_MS: '2000', DELIVERY_BACKOFF_MS: '300', DELIVERY_MAX_BACKOFF_MS: '300', DELIVERY_MAX_ATTEMPTS: '100' },
  });
  beforeEach(() => {
    suite.receiver.requests.length = 0;
  });

  let seq = 0;
  const pair = () => ({ from_user_id: `stop-customer-${++seq}`, to_user_id: 'bound-stop' });
  const deliveries = () => suite.system.deliveries();

  it('dead-letters a stale reply instead of delivering it', async () => {
    suite.receiver.respond((_r, _i, res) => res.writeHead(503).end());
    await suite.system.send({ ...pair(), content: 'hello' }, { send_url: suite.receiver.url });
    const [first] = await suite.receiver.waitFor(1);
    const id = first!.body.delivery_id;
    await waitUntil(async () => (await deliveries().get(id))?.state === 'dead');
    expect((await deliveries().get(id))?.dead_reason).to.equal('stale');
    expect(suite.receiver.requests.length).to.be.within(2, 99);
    expect(suite.receiver.requests.every((r) => r.at - first!.at < 2000)).to.equal(true);
    expect((await deliveries().attempts(id)).length).to.equal(suite.receiver.requests.length);
  });

  it('starts no delivery attempt after the stop answer while a delivery is retrying', async () => {
    suite.receiver.respond((_r, _i, res) => res.writeHead(503).end());
    const who = pair();
    await suite.system.send({ ...who, content: 'where is my parcel' }, { send_url: suite.receiver.url });
    await suite.receiver.waitFor(2);
    const stop = await suite.system.command(who, 'stop_auto_reply');
    const answeredAt = Date.now();
    expect(stop.json.data).to.include({ auto_reply: 'stopped', cancelled: 1 });
    await pause(1000); // proving an absence: three backoff periods
    expect(suite.receiver.requests.filter((r) => r.at > answeredAt)).to.deep.equal([]);
    const status = await suite.system.command(who, 'auto_reply_status');
    const latest = (status.json.data!['deliveries'] as { state: string; attempts: unknown[] }[])[0];
    expect(latest?.state).to.equal('cancelled');
    expect(latest?.attempts.length).to.be.at.least(2);
  });

  it('delivers nothing after the answer when a burst of messages is followed by a stop, and replies again after resume', async () => {
    suite.receiver.respond((_r, _i, res) => setTimeout(() => res.writeHead(200).end(), 100));
    const who = pair();
    for (let i = 0; i < 8; i++)
      await suite.system.send({ ...who, content: `message ${i}`, msg_id: `burst-${seq}-${i}` }, { send_url: suite.receiver.url });
    await suite.receiver.waitFor(1);
    const stop = await suite.system.command(who, 'stop_auto_reply');
    const answeredAt = Date.now();
    expect(stop.json.data).to.include({ auto_reply: 'stopped' });
    await pause(800);
    expect(suite.receiver.requests.filter((r) => r.at > answeredAt)).to.deep.equal([]);
    const before = suite.receiver.requests.length;
    expect(before).to.be.below(8);

    const suppressed = await suite.system.send({ ...who, content: 'anyone?' }, { send_url: suite.receiver.url });
    expect(suppressed.json.data).to.include({ status: 'suppressed' });
    await suite.system.command(who, 'resume_auto_reply');
    const resumed = await suite.system.send(
      { ...who, content: 'hello again', msg_id: `after-resume-${seq}` },
      { send_url: suite.receiver.url },
    );
    expect(resumed.json.data).to.include({ status: 'queued' });
    const requests = await suite.receiver.waitFor(before + 1);
    expect(requests[requests.length - 1]!.body.in_reply_to).to.deep.equal([`after-resume-${seq}`]);
  });
});
