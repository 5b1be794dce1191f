import { MODULE_RECORDER } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiProcess, type ApiProcess } from './support/api-process.js';

/**
 * docs/design/performance.md (memory): the API never delivers a webhook, so it never loads the webhook
 * client (packages/delivery and got, about 10 MiB of RSS); with the knowledge engine it never loads the
 * openai engine or the embeddings client either. They are reached only through the worker's entry
 * (`@dialog-relay/replies/worker`) and createEngineFromConfig's dynamic imports.
 */
describe('the API loads no module it never uses', function () {
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

  it('starts and answers /readyz without got, packages/delivery, the openai engine or the embeddings client', async () => {
    const log = join(folder, 'api.modules');
    api = await startApiProcess({ REPLY_ENGINE: 'knowledge', MODULE_LOG: log }, ['--import', MODULE_RECORDER]);
    expect((await fetch(`${api.url}/readyz`)).status).to.equal(200);
    const loaded = readFileSync(log, 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '');
    expect(
      loaded.filter((m) => /reply-engine\/dist\/src\/knowledge\//.test(m)),
      'the knowledge engine is loaded (the log works)',
    ).to.not.deep.equal([]);
    const unused = loaded.filter((m) => /\/node_modules\/got\/|\/delivery\/dist\/src\/|openai-engine\.js|embeddings-client\.js/.test(m));
    expect([...new Set(unused)]).to.deep.equal([]);
  });
});
