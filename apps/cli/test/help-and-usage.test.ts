import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { runCli } from './support/run-cli.js';

/** docs/integrating.md "CLI for integrators": exit 0 only on success, 1 on a failure, 2 on a usage error; help is not an error. */
describe('cli help and usage errors', function () {
  this.timeout(30_000);

  for (const args of [['--help'], ['-h'], ['help'], ['sign', '--help'], ['listen', '-h'], ['deliveries', 'list', '--help'], ['clients', '--help']]) {
    it(`prints the usage on stdout and exits 0 for "${args.join(' ')}" (without touching Redis)`, async () => {
      // An unreachable Redis: a command that tried to connect would fail instead of printing the usage.
      const result = await runCli(args, { REDIS_URL: 'redis://127.0.0.1:1' });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.include('dialog-relay CLI').and.to.include('send-test URL --secret WHSEC');
      expect(result.stderr).to.equal('');
    });
  }

  it('prints the release\'s version (the root package.json\'s) for --version, -V and version, as JSON with --json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const args of [['--version'], ['-V'], ['version']]) {
      const result = await runCli(args, { REDIS_URL: 'redis://127.0.0.1:1' });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.equal(`${version}\n`);
    }
    expect(JSON.parse((await runCli(['--version', '--json'])).stdout)).to.deep.equal({ version });
  });

  it('is installed as dialog-relay: package.json names a bin whose file starts with a shebang', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { bin?: Record<string, string> };
    expect(manifest.bin).to.deep.equal({ 'dialog-relay': 'dist/src/main.js' });
    expect(readFileSync(new URL('../../dist/src/main.js', import.meta.url), 'utf8')).to.match(/^#!\/usr\/bin\/env node\n/);
  });

  it('prints the usage as one JSON value with --help --json', async () => {
    const result = await runCli(['--help', '--json']);
    expect(result.code).to.equal(0);
    expect((JSON.parse(result.stdout) as { usage: string }).usage).to.include('dialog-relay CLI');
  });

  it('exits 2 naming the option for a listen port outside 0-65535, a --count of 0 or a --timeout-ms of 0', async () => {
    for (const [args, option] of [
      [['listen', '--secret', 'whsec_x', '--port', '70000'], '--port'],
      [['listen', '--secret', 'whsec_x', '--count', '0'], '--count'],
      [['send-test', 'http://127.0.0.1:9/hook', '--secret', 'whsec_x', '--timeout-ms', '0'], '--timeout-ms'],
    ] as const) {
      const result = await runCli([...args]);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(2);
      expect(result.stderr).to.include(option);
    }
  });

  it('exits 2 with the usage for an unknown option of deliveries list', async () => {
    const result = await runCli(['deliveries', 'list', '--conversation', 'c_x', '--bogus'], { ...testRedisEnv(), REDIS_PREFIX: uniquePrefix('chelp') });
    expect(result.code, result.stderr).to.equal(2);
    expect(result.stderr).to.include("Unknown option '--bogus'");
  });
});
