import { environmentWithout, freePort, runProcess, testRedisUrl, uniquePrefix, waitUntil, type ProcessRun } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's section under `## heading`. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "${heading}"`).to.be.greaterThan(0);
  const next = README.indexOf('\n## ', start + 1);
  return README.slice(start, next < 0 ? undefined : next);
}

/** The fenced blocks of a section in a language: `sh` ones (commands) and unmarked ones (what they print). */
function blocks(text: string, language: string): string[] {
  const found: string[] = [];
  let open: { language: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    const fence = /^```(\w*)$/.exec(line);
    if (open === undefined && fence) open = { language: fence[1] ?? '', lines: [] };
    else if (open !== undefined && line === '```') {
      if (open.language === language) found.push(`${open.lines.join('\n')}\n`);
      open = undefined;
    } else open?.lines.push(line);
  }
  return found;
}

/** A printed line of the README as a pattern: `…` stands for anything. */
const linePattern = (line: string): RegExp =>
  new RegExp(
    `^${line
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/** The environment of a user's shell: none of the variables npm start decides about. */
const userEnv = (): Record<string, string> =>
  environmentWithout(/^(CLIENTS|REDIS_.*|QUEUE_SHARDS|ALLOW_PRIVATE_SEND_URLS|ADMIN_TOKEN|HOST|PORT|DIALOG_RELAY_.*)$/);

const run = (command: string, env: Record<string, string>): Promise<ProcessRun> =>
  runProcess('bash', ['-c', command], { cwd: ROOT, env: { ...userEnv(), LOG_LEVEL: 'warn', ...env } });

/**
 * issue 20: the README's first signed request and first verified delivery, run as written against
 * `npm start` (API and worker on loopback, on the test kit's Redis). Only the two ports change: the
 * API's 8080 and the listener's 9999 become free ports of the test.
 */
describe('README examples, run as written', function () {
  this.timeout(120_000);
  let service: ChildProcess;
  let output = '';
  let env: Record<string, string>;
  let apiPort = 0;
  let listenPort = 0;
  const withPorts = (text: string): string =>
    text.replaceAll('127.0.0.1:8080', `127.0.0.1:${apiPort}`).replaceAll('9999', String(listenPort));

  before(async () => {
    apiPort = await freePort();
    listenPort = await freePort();
    const stateFile = join(mkdtempSync(join(tmpdir(), 'dr-readme-')), 'service.json');
    env = { DIALOG_RELAY_STATE_FILE: stateFile };
    service = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
      env: {
        ...userEnv(),
        ...env,
        PORT: String(apiPort),
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: uniquePrefix('readme'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntil(() => output.includes('API ready at') && output.includes('curl'), 60_000);
  });
  after(async () => {
    if (service.exitCode === null) {
      service.kill('SIGTERM');
      await new Promise((resolve) => service.once('exit', resolve));
    }
  });

  it('"A first signed request": the CLI\'s signed request answers as shown, and the Node SDK snippet prints 200 and the answer', async () => {
    const text = section('A first signed request');
    const [cli, node] = blocks(text, 'sh');
    const [answer] = blocks(text, '');
    expect(cli).to.include('sign --client demo');
    const signed = await run(withPorts(cli!), env);
    expect(signed.code, signed.stderr).to.equal(0);
    expect(signed.stdout.trim()).to.match(linePattern(answer!.trim()));

    const sdk = await run(withPorts(node!), env);
    expect(sdk.code, sdk.stderr).to.equal(0);
    const said = /It prints `(\d+)` and the suggested answer \("([^"…]*)…"\)/.exec(text);
    expect(said, 'the sentence saying what the Node snippet prints').to.not.equal(null);
    expect(sdk.stdout.trim().startsWith(`${said![1]} ${said![2]}`), sdk.stdout).to.equal(true);
  });

  it('"A first verified delivery": the listener verifies the delivery and prints the lines shown', async () => {
    const text = section('A first verified delivery');
    const [commands] = blocks(text, 'sh');
    const [printed] = blocks(text, '');
    const result = await run(withPorts(commands!), env);
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    const expected = withPorts(printed!).trim().split('\n');
    // "The listener's line may come first": every line shown is printed, in any order, and nothing else.
    expect(lines, result.stdout).to.have.length(expected.length);
    for (const line of expected)
      expect(
        lines.some((got) => linePattern(line).test(got)),
        `${line}\nin:\n${result.stdout}`,
      ).to.equal(true);
  });
});
