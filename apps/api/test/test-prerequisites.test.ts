import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../../../', import.meta.url).pathname;

/** A folder of stand-in programs that answer `--version`; `apt-get` fails, so nothing is ever installed. */
function stubPrograms(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'prerequisites-'));
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\necho "stand-in 1.0"\n');
    chmodSync(join(dir, name), 0o755);
  }
  writeFileSync(join(dir, 'apt-get'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(dir, 'apt-get'), 0o755);
  return dir;
}

/** scripts/system-packages.mjs's check, run where PATH holds only `dir` (npm test runs it first). */
function checkPrerequisites(dir: string, env: Record<string, string> = {}): { ok: boolean; said: string } {
  const script = `import(${JSON.stringify(join(ROOT, 'scripts/system-packages.mjs'))}).then((m) => process.exit(m.ensureSystemPackages((line) => console.log(line)) ? 0 : 1))`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: dir, ...env }, encoding: 'utf8' });
  return { ok: result.status === 0, said: `${result.stdout}${result.stderr}` };
}

describe('npm test prerequisites (docs/development.md "Tests")', () => {
  it("takes the Chromium CHROMIUM_PATH names instead of asking for Debian's chromium", () => {
    const dir = stubPrograms(['redis-server', 'redis-cli', 'python3', 'my-chromium']);
    const { ok, said } = checkPrerequisites(dir, { CHROMIUM_PATH: join(dir, 'my-chromium') });
    expect(ok, said).to.equal(true);
    expect(said).to.not.include('missing');
  });

  it('names what is missing when neither chromium nor CHROMIUM_PATH is there', () => {
    const { ok, said } = checkPrerequisites(stubPrograms(['redis-server', 'redis-cli', 'python3']));
    expect(ok).to.equal(false);
    expect(said).to.include('missing chromium');
  });

  it('names python3 when it is missing (the documented Python signing snippet is run by the tests)', () => {
    const { ok, said } = checkPrerequisites(stubPrograms(['redis-server', 'redis-cli', 'chromium']));
    expect(ok).to.equal(false);
    expect(said).to.include('missing python3');
  });

  it('names CHROMIUM_PATH when the program it names does not run', () => {
    const dir = stubPrograms(['redis-server', 'redis-cli', 'python3', 'chromium']);
    const { ok, said } = checkPrerequisites(dir, { CHROMIUM_PATH: join(dir, 'no-such-browser') });
    expect(ok).to.equal(false);
    expect(said).to.include('CHROMIUM_PATH');
  });
});
