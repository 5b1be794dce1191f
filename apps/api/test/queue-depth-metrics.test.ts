import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { bodyFor, post, sign, startTestApi, type TestApi } from './support/test-api.js';

const TOKEN = 'admin-token-queue-depth';

/** One Prometheus sample's value ("name value"), NaN when absent. */
const sample = (text: string, name: string): number =>
  Number(
    text
      .split('\n')
      .find((line) => line.startsWith(`${name} `))
      ?.slice(name.length + 1),
  );

/**
 * The API's /metrics carries what a worker autoscaler reads (docs/kubernetes.md): the due reply jobs
 * and the oldest one's wait, read at scrape time, and shown with no worker running at all.
 */
describe('queue depth on the API /metrics (no worker running)', () => {
  let debounced: TestApi;
  let immediate: TestApi;
  before(async () => {
    debounced = await startTestApi({ ADMIN_TOKEN: TOKEN, AUTO_REPLY_DEBOUNCE_MS: '600000', AUTO_REPLY_MAX_WAIT_MS: '600000' });
    immediate = await startTestApi({ ADMIN_TOKEN: TOKEN });
  });
  after(async () => {
    await debounced.close();
    await immediate.close();
  });
  const scrape = async (api: TestApi): Promise<string> =>
    (await fetch(`${api.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const queue = async (api: TestApi, customer: string): Promise<void> => {
    const answer = await post(api.url, sign(bodyFor('auto_dialog', { from_user_id: customer }, { send_url: 'http://127.0.0.1:9/hook' })));
    expect(answer.status, JSON.stringify(answer.json)).to.equal(202);
  };

  it('never counts a reply still in its debounce window (delayed), though the queue holds it', async () => {
    await queue(debounced, 'depth-debounced-1');
    const text = await scrape(debounced);
    expect(sample(text, 'dialog_relay_queue_jobs{state="delayed"}')).to.equal(1);
    expect(sample(text, 'dialog_relay_queue_due_jobs')).to.equal(0);
    expect(sample(text, 'dialog_relay_oldest_waiting_reply_age_seconds')).to.equal(0);
  });

  it('counts due replies no worker has taken, and how long the oldest has waited', async () => {
    await queue(immediate, 'depth-due-1');
    await queue(immediate, 'depth-due-2');
    let text = await scrape(immediate);
    expect(sample(text, 'dialog_relay_queue_due_jobs')).to.equal(2);
    await waitUntil(async () => {
      text = await scrape(immediate);
      return sample(text, 'dialog_relay_oldest_waiting_reply_age_seconds') > 0;
    });
    expect(sample(text, 'dialog_relay_queue_due_jobs')).to.equal(2);
  });
});
