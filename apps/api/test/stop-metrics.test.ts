import { expect } from 'chai';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

const TOKEN = 'admin-token-stop-metrics';

/** The value of one series of a Prometheus text exposition, whatever the order of its labels (0 when absent). */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_:][a-z0-9_:]*)(?:\{([^}]*)\})? (\S+)$/i.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',').filter((pair) => pair !== '');
    if (present.length === wanted.length && wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return 0;
}

describe('API metrics of stops and human takeovers (no worker runs: replies stay pending)', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ ADMIN_TOKEN: TOKEN });
  });
  after(() => t.close());

  const scrape = async (): Promise<string> => (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const pendingCancelled = (text: string, cause: string): number =>
    valueOf(text, 'dialog_relay_reply_cancellations_total', { when: 'pending', cause });
  const stops = (text: string): number => valueOf(text, 'dialog_relay_stop_latency_seconds_count');
  const customerMessage = async (customer: string, bot: string): Promise<void> => {
    const answer = await post(
      t.url,
      sign(bodyFor('auto_dialog', { from_user_id: customer, to_user_id: bot, from_user_type: 2 }, { send_url: 'http://127.0.0.1:9/hook' })),
    );
    expect(answer.json.data).to.include({ status: 'queued' });
  };
  const command = (content: string, customer: string, bot: string) =>
    post(t.url, sign(bodyFor('cmd_dialog', { from_user_id: bot, to_user_id: customer, content })));

  it("counts a stop that cancels a waiting reply as a pending cancellation caused by a stop, and observes the stop's latency", async () => {
    await customerMessage('stop-customer-1', 'stop-bot-1');
    await customerMessage('stop-customer-1', 'stop-bot-1');
    const before = await scrape();

    const stop = await command('stop_auto_reply', 'stop-customer-1', 'stop-bot-1');

    expect(stop.json.data).to.include({ auto_reply: 'stopped', cancelled: 2 });
    const after = await scrape();
    expect(pendingCancelled(after, 'stop') - pendingCancelled(before, 'stop')).to.equal(1);
    expect(pendingCancelled(after, 'human')).to.equal(pendingCancelled(before, 'human'));
    expect(stops(after) - stops(before)).to.equal(1);
    expect(valueOf(after, 'dialog_relay_stop_latency_seconds_bucket', { le: '+Inf' })).to.equal(stops(after));
  });

  it('counts a staff member writing to the customer, which cancels the waiting reply, with cause human', async () => {
    await customerMessage('human-customer-1', 'human-bot-1');
    const before = await scrape();

    const staff = await post(
      t.url,
      sign(
        bodyFor(
          'auto_dialog',
          { from_user_id: 'human-bot-1', to_user_id: 'human-customer-1', from_user_type: 3 },
          { send_url: 'http://127.0.0.1:9/hook' },
        ),
      ),
    );

    expect(staff.status).to.equal(202);
    const after = await scrape();
    expect(pendingCancelled(after, 'human') - pendingCancelled(before, 'human')).to.equal(1);
    expect(stops(after)).to.equal(stops(before));
  });

  it('counts no cancellation for a stop with nothing waiting, and no stop latency for other commands', async () => {
    const before = await scrape();

    expect((await command('stop_auto_reply', 'idle-customer-1', 'idle-bot-1')).json.data).to.include({ cancelled: 0 });
    expect((await command('auto_reply_status', 'idle-customer-1', 'idle-bot-1')).status).to.equal(200);
    expect((await command('resume_auto_reply', 'idle-customer-1', 'idle-bot-1')).status).to.equal(200);

    const after = await scrape();
    expect(pendingCancelled(after, 'stop')).to.equal(pendingCancelled(before, 'stop'));
    expect(stops(after) - stops(before)).to.equal(1);
  });
});
