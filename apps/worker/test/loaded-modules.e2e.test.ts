import { MODULE_RECORDER, testRedisUrl, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORKER_MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.js');

/**
 * docs/design/performance.md (memory): with the knowledge engine, the worker never loads the openai engine
 * or the embeddings client; createEngineFromConfig imports them only when they are configured.
 */
describe('the worker loads no reply engine it is not configured with', function () {
  this.timeout(60_000);
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'dialog-relay-worker-modules-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('starts with REPLY_ENGINE=knowledge without the openai engine or the embeddings client', async () => {
    const log = join(folder, 'worker.modules');
    const env = {
      ...process.env,
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: uniquePrefix('worker-modules'),
      LOG_LEVEL: 'info',
      REPLY_ENGINE: 'knowledge',
      MODULE_LOG: log,
    };
    const child = spawn(process.execPath, ['--import', MODULE_RECORDER, WORKER_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await waitUntil(() => output.includes('worker started'), 30_000);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, output).to.equal(0);
    const loaded = readFileSync(log, 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '');
    expect(
      loaded.filter((m) => /reply-engine\/dist\/src\/knowledge\//.test(m)),
      'the knowledge engine is loaded (the log works)',
    ).to.not.deep.equal([]);
    expect([...new Set(loaded.filter((m) => /openai-engine\.js|embeddings-client\.js/.test(m)))]).to.deep.equal([]);
  });
});
