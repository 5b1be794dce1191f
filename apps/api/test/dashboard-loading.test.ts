import { expect } from 'chai';
import { startRecordedApi, type RecordedApi } from './support/recorded-api.js';

const READ = 'dashboard-loading-read-token-0001';

/**
 * docs/design/performance.md (memory): bull-board and its React bundle's server side weigh about 18 MiB of
 * RSS, so the API loads them when an admin first opens /admin/queues, not at start.
 */
describe('the queue dashboard is loaded on first use', function () {
  this.timeout(60_000);
  let recorded: RecordedApi | undefined;
  after(async () => {
    await recorded?.stop();
  });
  const bullBoard = (): string[] => (recorded?.loaded() ?? []).filter((url) => /@bull-board/.test(url));

  it('starts and answers without loading bull-board, and loads it when the dashboard is opened', async () => {
    recorded = await startRecordedApi({ ADMIN_TOKEN: READ });
    const { api } = recorded;
    expect((await fetch(`${api.url}/readyz`)).status).to.equal(200);
    expect(bullBoard(), 'loaded at start').to.deep.equal([]);

    const page = await fetch(`${api.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${READ}` } });
    expect(page.status, api.output()).to.equal(200);
    const answer = (await page.json()) as { queues: { name: string }[] };
    expect(answer.queues.length).to.be.greaterThan(0);
    expect(bullBoard(), 'loaded once opened').to.not.deep.equal([]);
  });
});
