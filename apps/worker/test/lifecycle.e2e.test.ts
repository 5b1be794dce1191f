import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { suiteSystem } from './support/suite-system.js';

describe('worker lifecycle', function () {
  const suite = suiteSystem({ workers: 1, env: { DELIVERY_TIMEOUT_MS: '3000', WORKER_LOCK_MS: '8000', LOG_LEVEL: 'info' } });

  it('keeps running after SIGHUP (knowledge files reload; the signal never ends the process)', async () => {
    const worker = suite.system.workers[0]!;
    worker.child.kill('SIGHUP');
    // SIGHUP's default action ends a process at once; one that handles it is still there a second later
    const outcome = await Promise.race([
      worker.exited.then((code) => `exited ${code}`),
      new Promise<string>((resolve) => setTimeout(() => resolve('running'), 1000)),
    ]);
    expect(outcome, worker.output()).to.equal('running');
  });

  it('on SIGTERM finishes the delivery in flight and exits 0', async () => {
    let release: () => void = () => undefined;
    suite.receiver.respond((_r, _i, res) => {
      release = () => res.writeHead(200).end();
    });
    await suite.system.send({ from_user_id: 'term-customer', to_user_id: 'bound', content: 'hi' }, { send_url: suite.receiver.url });
    await suite.receiver.waitFor(1);
    const worker = suite.system.workers[0]!;
    worker.child.kill('SIGTERM');
    setTimeout(() => release(), 300);
    expect(await worker.exited).to.equal(0);
    expect(worker.output()).to.include('worker stopped');
    expect(worker.output()).to.not.include('job failed');
  });

  it('handles SIGTERM from the moment it logs "worker started" (drains and exits 0, not killed by the signal)', async () => {
    // the race CI met: a SIGTERM sent on reading "worker started" arrived before the handler was installed
    const { spawn } = await import('node:child_process');
    const main = new URL('../src/main.js', import.meta.url).pathname;
    const preload = new URL('./support/sigterm-when-started.js', import.meta.url).href;
    const child = spawn(process.execPath, ['--import', preload, main], {
      env: { ...process.env, REDIS_URL: testRedisUrl(), REDIS_PREFIX: uniquePrefix('worker-early-term'), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    expect({ code, signal }, output).to.deep.equal({ code: 0, signal: null });
    expect(output).to.include('worker started').and.to.include('worker stopped');
  });

  it('refuses to start with a bad configuration, naming the variable', async () => {
    const { spawnSync } = await import('node:child_process');
    const main = new URL('../src/main.js', import.meta.url);
    const result = spawnSync(process.execPath, [main.pathname], {
      env: { ...process.env, DELIVERY_MAX_ATTEMPTS: 'many' },
      encoding: 'utf8',
    });
    expect(result.status).to.equal(78);
    expect(result.stderr).to.include('DELIVERY_MAX_ATTEMPTS');
  });
});
