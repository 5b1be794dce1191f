import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { openApiFileText } from '../src/served-openapi.js';
import { startTestApi, type TestApi } from './support/test-api.js';

const committed = new URL('../../../../docs/openapi.json', import.meta.url);

describe('docs/openapi.json (the committed OpenAPI document)', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi();
  });
  after(() => t.close());

  it('is exactly the document the API serves at GET /openapi.json with the default configuration (regenerate: npm run openapi)', async () => {
    const served = (await (await fetch(`${t.url}/openapi.json`)).json()) as Record<string, unknown>;
    const text = readFileSync(committed, 'utf8');
    expect(JSON.parse(text), 'docs/openapi.json drifted from the served document: run `npm run openapi`').to.deep.equal(served);
    expect(text, 'docs/openapi.json is not in the format `npm run openapi` writes').to.equal(openApiFileText(served));
  });
});
