import { expect } from 'chai';
import { startRecordedApi, type RecordedApi } from './support/recorded-api.js';

/**
 * docs/design/performance.md (memory): the API never delivers a webhook, so it never loads the webhook
 * client (packages/delivery and got, about 10 MiB of RSS); with the knowledge engine it never loads the
 * openai engine or the embeddings client either. They are reached only through the worker's entry
 * (`@dialog-relay/replies/worker`) and createEngineFromConfig's dynamic imports.
 */
describe('the API loads no module it never uses', function () {
  this.timeout(60_000);
  let recorded: RecordedApi | undefined;
  after(async () => {
    await recorded?.stop();
  });

  it('starts and answers /readyz without got, packages/delivery, the openai engine or the embeddings client', async () => {
    recorded = await startRecordedApi({ REPLY_ENGINE: 'knowledge' });
    expect((await fetch(`${recorded.api.url}/readyz`)).status).to.equal(200);
    const loaded = recorded.loaded();
    expect(
      loaded.filter((m) => /reply-engine\/dist\/src\/knowledge\//.test(m)),
      'the knowledge engine is loaded (the log works)',
    ).to.not.deep.equal([]);
    const unused = loaded.filter((m) => /\/node_modules\/got\/|\/delivery\/dist\/src\/|openai-engine\.js|embeddings-client\.js/.test(m));
    expect([...new Set(unused)]).to.deep.equal([]);
  });
});
