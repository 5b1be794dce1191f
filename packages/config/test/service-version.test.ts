import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { SERVICE_VERSION } from '../src/index.js';

describe('SERVICE_VERSION', () => {
  it("is the root package.json's version", () => {
    const root = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SERVICE_VERSION)
      .to.equal(root.version)
      .and.to.match(/^\d+\.\d+\.\d+/);
  });
});
