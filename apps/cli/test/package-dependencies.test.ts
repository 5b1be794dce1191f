import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const sourcesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });

describe('the CLI package', () => {
  it('declares only dependencies its code imports (an unused one is installed and audited for nothing)', () => {
    const manifest = JSON.parse(readFileSync(join(CLI_ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const code = sourcesUnder(join(CLI_ROOT, 'src')).join('\n');
    const imported = (name: string): boolean => new RegExp(`(?:from |import\\()'${name.replace(/[/.]/g, '\\$&')}(?:/[^']*)?'`).test(code);
    expect(Object.keys(manifest.dependencies ?? {}).filter((name) => !imported(name))).to.deep.equal([]);
  });
});
