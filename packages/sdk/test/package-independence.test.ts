import { ERROR_STATUS } from '@dialog-relay/contracts';
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../src/index.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('sdk: publishable on its own', () => {
  it('imports no package of the service', () => {
    const srcDir = join(packageDir, 'src');
    for (const file of readdirSync(srcDir).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(srcDir, file), 'utf8');
      expect(source, file).not.to.match(/from '@dialog-relay\//);
    }
  });

  it('declares its name, types and exports, and depends on no package of the service', () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      name: string;
      private?: boolean;
      types: string;
      exports: Record<string, { types: string; default: string }>;
      dependencies: Record<string, string>;
    };
    expect(manifest.name).to.equal('@dialog-relay/sdk');
    expect(manifest.private).to.equal(undefined);
    expect(manifest.exports['.']).to.deep.equal({ types: './dist/src/index.d.ts', default: './dist/src/index.js' });
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@dialog-relay/'))).to.deep.equal([]);
  });

  it('knows exactly the error codes the API can answer', () => {
    expect([...ERROR_CODES].sort()).to.deep.equal(Object.keys(ERROR_STATUS).sort());
  });
});
