import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ERROR_STATUS } from '../src/index.js';

const GUIDE = new URL('../../../../docs/integrating.md', import.meta.url);

/** The rows `| 400 `code` | when |` of the error table in docs/integrating.md (section "The API"). */
function readmeErrorRows(): Map<string, number[]> {
  const text = readFileSync(GUIDE, 'utf8');
  const section = text.slice(text.indexOf('\n## The API'), text.indexOf('\n**Idempotency.**'));
  const rows = new Map<string, number[]>();
  for (const match of section.matchAll(/^\| (\d{3}) `([a-z_]+)`/gm)) {
    const [, status = '', code = ''] = match;
    rows.set(code, [...(rows.get(code) ?? []), Number(status)]);
  }
  return rows;
}

describe('error table (docs/integrating.md)', () => {
  it('lists every error code the API can answer, with its status, and no other', () => {
    const rows = readmeErrorRows();
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(rows.get(code), `docs/integrating.md has no row for ${status} ${code}`).to.be.an('array');
      expect([...new Set(rows.get(code))], code).to.deep.equal([status]);
    }
    expect([...rows.keys()].filter((code) => !Object.hasOwn(ERROR_STATUS, code))).to.deep.equal([]);
  });
});
