import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DEMO } from './vectors.js';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoModules = join(packageDir, '..', '..', 'node_modules');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  bin?: string | Record<string, string>;
}
const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/**
 * node_modules holding only what the manifest declares (and what those need), linked from the
 * installed copies: as `npm install` in a copy of the package would, without the rest of the repository.
 */
function installDeclared(target: string, names: string[]): void {
  const queue = [...names];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const link = join(target, 'node_modules', name);
    // Not at the top of the repository's node_modules: installed inside the package that needs it (linked with it).
    if (existsSync(link) || !existsSync(join(repoModules, name))) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(repoModules, name), link, 'dir');
    const manifest = manifestOf(join(repoModules, name));
    const bins = typeof manifest.bin === 'string' ? { [name.split('/').pop()!]: manifest.bin } : (manifest.bin ?? {});
    for (const [command, file] of Object.entries(bins)) {
      mkdirSync(join(target, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(join(link, file), join(target, 'node_modules', '.bin', command));
    }
    queue.push(...Object.keys(manifest.dependencies ?? {}));
  }
}

describe('sdk: builds and packs outside the monorepo', function () {
  this.timeout(120_000);
  let copy: string;
  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'dialog-relay-sdk-'));
    const manifest = manifestOf(packageDir);
    // What a copy of the package holds: no tests, no monorepo configuration.
    for (const entry of ['package.json', 'README.md', 'LICENSE', 'src', 'tsconfig.build.json']) {
      if (existsSync(join(packageDir, entry))) cpSync(join(packageDir, entry), join(copy, entry), { recursive: true });
    }
    installDeclared(copy, [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  it('declares no package of the service, not even for development (npm install of a copy must not look for them)', () => {
    const manifest = manifestOf(packageDir);
    const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
    expect(declared.filter((name) => name.startsWith('@dialog-relay/'))).to.deep.equal([]);
  });

  it('builds its JavaScript and types on `npm pack` (prepack) and packs them, without tests', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], {
      cwd: copy,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ files: { path: string }[] }];
    const files = packed.files.map((f) => f.path);
    expect(files).to.include.members([
      'package.json',
      'README.md',
      'LICENSE',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/verify-delivery.js',
      'src/index.ts',
    ]);
    expect(files.filter((path) => path.includes('test'))).to.deep.equal([]);
  });

  it('works from the standalone build: signs the documented worked example', async () => {
    const built = join(copy, 'dist', 'src', 'index.js');
    if (!existsSync(built)) await run('npm', ['run', 'build', '--loglevel=error'], { cwd: copy });
    const sdk = (await import(pathToFileURL(built).href)) as {
      signRequest: (body: Record<string, unknown>, options: { secret: string; scheme: string }) => string;
    };
    const body = JSON.parse(DEMO.bodyJson) as Record<string, unknown>;
    expect(sdk.signRequest(body, { secret: DEMO.secret, scheme: 'hmac-sha256' })).to.equal(DEMO.hmac);
  });
});
