import { testRedisUrl } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const DEMO = join(ROOT, 'scripts', 'demo.mjs');
/** Checks every answer the demo's SDK client gets from its API against the OpenAPI document, inside the demo. */
const OPENAPI_GUARD = pathToFileURL(join(ROOT, 'packages', 'testkit', 'dist', 'src', 'openapi-guard.js')).href;
/** Where a Redis could be told to be: the demo gets none of them in its environment unless a test sets one. */
const REDIS_VARIABLES = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS', 'REDIS_SENTINEL_NAME', 'REDIS_PASSWORD', 'TEST_REDIS_URL'];

async function runDemo(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !REDIS_VARIABLES.includes(name)));
  const child = spawn(process.execPath, ['--import', OPENAPI_GUARD, DEMO], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, output };
}

function expectWholeWalkThrough(output: string): void {
  for (const shown of [
    '1. assist_dialog',
    '2. website_dialog',
    '3. auto_dialog',
    '4. cmd_dialog',
    '"cancelled":1',
    'webhook-id dlv_',
    'invalid_signature',
    'demo finished: every step behaved as shown',
  ]) {
    expect(output, shown).to.include(shown);
  }
  expect(output).not.to.include('✘');
  expect(output).not.to.include('OpenAPI');
  // The service, its receiver and the send_url all live on loopback.
  expect(output).to.match(/API http:\/\/127\.0\.0\.1:\d+, a worker, and your receiver http:\/\/127\.0\.0\.1:\d+\/hook/);
  expect(output).to.include('"send_url":"http://127.0.0.1:');
}

/** True while something accepts connections on this loopback port. */
const accepting = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('npm run demo', () => {
  it('walks through the four scenarios on the Redis of REDIS_URL, verifies the delivery and cancels a pending reply with a stop, exiting 0', async () => {
    const { code, output } = await runDemo({ REDIS_URL: testRedisUrl() });
    expect(code, output).to.equal(0);
    expectWholeWalkThrough(output);
    expect(output).to.include('Redis: REDIS_URL as set');
  });

  it('without REDIS_URL starts a private redis-server of its own on a free loopback port, and removes it at the end', async () => {
    const { code, output } = await runDemo({});
    expect(code, output).to.equal(0);
    expectWholeWalkThrough(output);
    const port = Number(/Redis: a private redis-server at redis:\/\/127\.0\.0\.1:(\d+), removed at the end/.exec(output)?.[1]);
    expect(port, output).to.be.greaterThan(0);
    expect(port, 'not the port of a Redis the machine may run').not.to.equal(6379);
    expect(await accepting(port), 'the private redis-server is gone').to.equal(false);
  });
});
