import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Manifest {
  main: string;
  types: string;
  license: string;
  exports: Record<string, { types: string; default: string }>;
}

/**
 * What an integrator gets from the registry: `npm pack --dry-run --json` in the package itself (the
 * build is the one the tests run from, so the prepack build is skipped), as CI runs it.
 */
describe('sdk: the published package (npm pack --dry-run)', function () {
  this.timeout(60_000);
  let files: string[];
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Manifest;
  before(async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], {
      cwd: packageDir,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ files: { path: string }[] }];
    files = packed.files.map((file) => file.path);
  });

  it('holds the licence, the README and the manifest', () => {
    expect(files).to.include.members(['LICENSE', 'README.md', 'package.json']);
    expect(manifest.license).to.equal('Apache-2.0');
    expect(readFileSync(join(packageDir, 'LICENSE'), 'utf8'))
      .to.include('Apache License')
      .and.to.include('Version 2.0');
  });

  it('holds every entry file the manifest names (main, types, exports)', () => {
    const entries = [manifest.main, manifest.types, ...Object.values(manifest.exports).flatMap((entry) => [entry.types, entry.default])];
    expect(entries.map((entry) => entry.replace(/^\.\//, ''))).to.satisfy((paths: string[]) => paths.every((path) => files.includes(path)));
    expect(files).to.include.members(['dist/src/index.js', 'dist/src/index.d.ts']);
  });

  it('holds no tests, test support or build configuration', () => {
    expect(files.filter((path) => /(^|\/)test(s)?\/|\.test\.|\.spec\.|^tsconfig/.test(path))).to.deep.equal([]);
    expect(
      files.every(
        (path) => ['LICENSE', 'README.md', 'package.json'].includes(path) || path.startsWith('dist/src/') || path.startsWith('src/'),
      ),
    ).to.equal(true);
  });
});
