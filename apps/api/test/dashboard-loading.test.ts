import { MODULE_RECORDER } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiProcess, type ApiProcess } from './support/api-process.js';

const READ = 'dashboard-loading-read-token-0001';

/**
 * docs/design/performance.md (memory): bull-board and its React bundle's server side weigh about 18 MiB of
 * RSS, so the API loads them when an admin first opens /admin/queues, not at start.
 */
describe('the queue dashboard is loaded on first use', function () {
  this.timeout(60_000);
  let folder: string;
  let api: ApiProcess | undefined;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'dialog-relay-modules-'));
  });
  after(async () => {
    await api?.stop();
    rmSync(folder, { recursive: true, force: true });
  });
  const bullBoard = (log: string): string[] =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => /@bull-board/.test(line.split(' ')[1] ?? ''));

  it('starts and answers without loading bull-board, and loads it when the dashboard is opened', async () => {
    const log = join(folder, 'api.modules');
    api = await startApiProcess({ ADMIN_TOKEN: READ, MODULE_LOG: log }, ['--import', MODULE_RECORDER]);
    expect((await fetch(`${api.url}/readyz`)).status).to.equal(200);
    expect(bullBoard(log), 'loaded at start').to.deep.equal([]);

    const page = await fetch(`${api.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${READ}` } });
    expect(page.status, api.output()).to.equal(200);
    const answer = (await page.json()) as { queues: { name: string }[] };
    expect(answer.queues.length).to.be.greaterThan(0);
    expect(bullBoard(log), 'loaded once opened').to.not.deep.equal([]);
  });
});
