import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runCli } from './support/run-cli.js';

const run = promisify(execFile);

/** docs/integrating.md "CLI for integrators": exit 0 only on success, 1 on a failure, 2 on a usage error; help is not an error. */
describe('cli help and usage errors', function () {
  this.timeout(30_000);

  for (const args of [['--help'], ['-h'], ['help']]) {
    it(`prints the usage on stdout and exits 0 for "${args.join(' ')}" (without touching Redis)`, async () => {
      // An unreachable Redis: a command that tried to connect would fail instead of printing the usage.
      const result = await runCli(args, { REDIS_URL: 'redis://127.0.0.1:1' });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout).to.include('dialog-relay CLI').and.to.include('send-test URL --secret WHSEC');
      expect(result.stderr).to.equal('');
    });
  }

  it("prints the release's version (the root package.json's) for --version, -V and version, as JSON with --json", async () => {
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
    const result = await runCli(['deliveries', 'list', '--conversation', 'c_x', '--bogus'], {
      ...testRedisEnv(),
      REDIS_PREFIX: uniquePrefix('chelp'),
    });
    expect(result.code, result.stderr).to.equal(2);
    expect(result.stderr).to.include("Unknown option '--bogus'");
  });
});

describe('cli help per command', function () {
  this.timeout(60_000);
  const commands = ['sign', 'listen', 'send-test', 'deliveries', 'conversation', 'clients', 'dead-letters', 'shards'];

  for (const command of commands) {
    it(`prints the usage of ${command} alone for "${command} --help", "${command} -h" and "help ${command}", exit 0, without touching Redis`, async () => {
      for (const args of [
        [command, '--help'],
        [command, '-h'],
        ['help', command],
      ]) {
        const result = await runCli(args, { REDIS_URL: 'redis://127.0.0.1:1' });
        expect(result.code, result.stderr).to.equal(0);
        expect(result.stdout).to.match(new RegExp(`^usage: dialog-relay ${command} `));
        expect(result.stdout, 'not the overview').not.to.include('dialog-relay CLI');
        expect(result.stderr).to.equal('');
      }
    });
  }

  it("names the stdin and environment sources of every secret in the commands' help", async () => {
    for (const [command, sources] of [
      ['sign', ['--secret-stdin', 'DIALOG_RELAY_SECRET']],
      ['listen', ['--secret-stdin', 'DIALOG_RELAY_WEBHOOK_SECRET']],
      ['send-test', ['--secret-stdin', 'DIALOG_RELAY_WEBHOOK_SECRET']],
      ['clients', ['--record-stdin', 'DIALOG_RELAY_CLIENT_RECORD']],
    ] as const) {
      const { stdout } = await runCli([command, '--help']);
      for (const source of sources) expect(stdout, `${command} --help`).to.include(source);
    }
  });

  it('prints a command\'s usage for "deliveries list --help" and as JSON with --json', async () => {
    expect((await runCli(['deliveries', 'list', '--help'])).stdout).to.match(/^usage: dialog-relay deliveries list/);
    expect((JSON.parse((await runCli(['sign', '--help', '--json'])).stdout) as { usage: string }).usage).to.match(
      /^usage: dialog-relay sign /,
    );
  });

  it("says where sign's default --url comes from (DIALOG_RELAY_URL, the running npm start's API, then 8080)", async () => {
    const { stdout } = await runCli(['sign', '--help']);
    expect(stdout).to.include('DIALOG_RELAY_URL').and.to.include('npm start').and.to.include('http://127.0.0.1:8080');
    expect(stdout).not.to.include('[--url http://127.0.0.1:8080]');
  });

  it("prints a command's usage through npm run cli -- <command> --help (exit 0)", async () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', 'send-test', '--help'], {
      cwd: root,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    expect(stdout).to.match(/^usage: dialog-relay send-test URL/);
  });
});
