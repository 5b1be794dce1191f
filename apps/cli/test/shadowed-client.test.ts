import { environmentWithout, runProcess, testRedisEnv, testRedisUrl, uniquePrefix, type ProcessRun } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonLines, runCli } from './support/run-cli.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const DEMO_CLIENTS = JSON.stringify({
  demo: { secret: 'demo-secret-not-for-production', webhook_secret: 'whsec_ZGVtby13ZWJob29rLWtleS0xMjM0NTY3ODkw' },
});
const RECORD = '{"secret":"stored-secret-0123456789"}';

/** `npm run cli -- …` as a separate process, with no Redis named (it finds npm start's through the state file). */
const runService = (args: string[], env: Record<string, string>): Promise<ProcessRun> =>
  runProcess(process.execPath, [join(ROOT, 'scripts/run-service.mjs'), 'cli', ...args], {
    cwd: ROOT,
    env: { ...environmentWithout(/^(REDIS_|QUEUE_SHARDS$|CLIENTS$)/), LOG_LEVEL: 'error', ...env },
  });

/**
 * issue 20: a client in the service's CLIENTS variable wins over a stored client of the same id (the
 * registry asks CLIENTS first and never reads the store for that id), so `clients add demo` stored a
 * record the service never used, silently.
 */
describe('cli clients add/remove of an id the service also has in CLIENTS', function () {
  this.timeout(60_000);

  it('warns on stderr (and in a "warning" field with --json) when the CLI sees that CLIENTS itself', async () => {
    const env = { ...testRedisEnv(), REDIS_PREFIX: uniquePrefix('shadow'), CLIENTS: DEMO_CLIENTS };
    const added = await runCli(['clients', 'add', 'demo', RECORD], env);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.match(/^saved demo\t/);
    expect(added.stderr)
      .to.include('warning: client "demo" is also defined in the CLIENTS variable')
      .and.include('the service uses that one');

    const asJson = await runCli(['clients', 'add', 'demo', RECORD, '--json'], env);
    expect(asJson.code, asJson.stderr).to.equal(0);
    const [line] = jsonLines(asJson.stdout) as [{ saved: { id: string }; warning: string }];
    expect(line.saved.id).to.equal('demo');
    expect(line.warning).to.include('CLIENTS');
    expect(asJson.stderr).to.equal('');

    const removed = await runCli(['clients', 'remove', 'demo'], env);
    expect(removed.code, removed.stderr).to.equal(0);
    expect(removed.stderr).to.include('warning: client "demo" is also defined in the CLIENTS variable').and.include('still accepted');

    const other = await runCli(['clients', 'add', 'acme', RECORD], env);
    expect(other.code, other.stderr).to.equal(0);
    expect(other.stderr).to.equal('');
  });

  it('warns when npm start runs the service with the demo client: the state file names its client ids, never their secrets', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'dr-shadow-')), 'service.json');
    const prefix = uniquePrefix('shadow-state');
    const previous = process.env['DIALOG_RELAY_STATE_FILE'];
    process.env['DIALOG_RELAY_STATE_FILE'] = stateFile;
    try {
      // As npm start calls it once the API is ready (this process's pid stands in for npm start's).
      const { writeState } = (await import(join(ROOT, 'scripts/service-state.mjs'))) as {
        writeState: (env: Record<string, string>) => void;
      };
      writeState({ REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, CLIENTS: DEMO_CLIENTS, HOST: '127.0.0.1' });
    } finally {
      if (previous === undefined) delete process.env['DIALOG_RELAY_STATE_FILE'];
      else process.env['DIALOG_RELAY_STATE_FILE'] = previous;
    }
    const state = readFileSync(stateFile, 'utf8');
    expect(state).to.include('"demo"').and.not.include('demo-secret-not-for-production').and.not.include('whsec_');

    const added = await runService(['clients', 'add', 'demo', RECORD], { DIALOG_RELAY_STATE_FILE: stateFile });
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stderr).to.include('warning: client "demo" is also defined in the CLIENTS variable');
    const other = await runService(['clients', 'add', 'acme', RECORD], { DIALOG_RELAY_STATE_FILE: stateFile });
    expect(other.code, other.stderr).to.equal(0);
    expect(other.stderr).to.equal('');
  });
});
