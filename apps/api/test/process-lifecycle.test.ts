import { loadConfig } from '@dialog-relay/config';
import { signRequestBody } from '@dialog-relay/signing';
import express from 'express';
import { freePort, testRedisUrl, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { startApiProcess } from './support/api-process.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const MAIN = new URL('../src/main.js', import.meta.url).pathname;

/** Starts an API process with `env` added to this one's and waits (20 s at most) for it to exit, as a refusal does. */
const startApi = (env: Record<string, string>) =>
  spawnSync(process.execPath, [MAIN], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });

describe('API process lifecycle', function () {
  let slowModel: Server;
  let modelUrl: string;
  let releaseModel: () => void = () => undefined;
  let modelRequests = 0;
  before(async () => {
    // An OpenAI-compatible endpoint that answers only when the test says so: a request stays in flight.
    slowModel = createServer((req, res) => {
      req.resume();
      modelRequests += 1;
      releaseModel = () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { content: 'late but complete' } }] }));
    });
    await new Promise<void>((resolve) => slowModel.listen(0, '127.0.0.1', resolve));
    modelUrl = `http://127.0.0.1:${(slowModel.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    slowModel.closeAllConnections();
    await new Promise((resolve) => slowModel.close(resolve));
  });

  it('finishes a request in flight on SIGTERM, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: uniquePrefix('proc'),
        LOG_LEVEL: 'info',
        CLIENTS: JSON.stringify({ shop: { secret: 'shop-secret-0001' } }),
        REPLY_ENGINE: 'openai',
        OPENAI_BASE_URL: modelUrl,
        OPENAI_API_KEY: 'k',
        OPENAI_TIMEOUT_MS: '10000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const base = `http://127.0.0.1:${port}`;
    // up to 20 s: a loaded machine starts the process slowly
    let ready = 0;
    for (let i = 0; i < 400 && ready !== 200 && child.exitCode === null; i++) {
      ready = await fetch(`${base}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(ready, `the API did not become ready: ${output}`).to.equal(200);
    const now = Math.floor(Date.now() / 1000);
    const body: Record<string, unknown> = {
      client: 'shop',
      timestamp: now,
      message_info: {
        from_user_id: 'u',
        to_user_id: 'b',
        content: 'hi',
        message_type: 1,
        event_type: 'website_dialog',
        create_timestamp: now,
      },
    };
    body['signature'] = signRequestBody(body, 'shop-secret-0001', 'hmac-sha256');
    const inFlight = fetch(`${base}/custom-im/chat-messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await waitUntil(() => modelRequests === 1); // the request is now in flight, waiting for the model
    child.kill('SIGTERM');
    await waitUntil(() => output.includes('api draining'));
    const refused = await fetch(`${base}/healthz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(refused).to.equal('refused');
    releaseModel();
    const answer = await inFlight;
    expect(answer.status).to.equal(200);
    expect(((await answer.json()) as { data: { content: { content: string }[] } }).data.content[0]?.content).to.equal('late but complete');
    expect(await exited).to.equal(0);
    expect(output).to.include('api stopped');
  });

  for (const engine of ['knowledge', 'openai']) {
    it(`keeps serving after SIGHUP (the ${engine} engine reloads, never ends the process)`, async () => {
      const api = await startApiProcess(
        engine === 'openai' ? { REPLY_ENGINE: 'openai', OPENAI_BASE_URL: modelUrl, OPENAI_API_KEY: 'k' } : {},
      );
      try {
        const exited = new Promise<string>((resolve) =>
          api.child.once('exit', (code, signal) => resolve(`exited ${code ?? signal ?? ''}`)),
        );
        api.child.kill('SIGHUP');
        // SIGHUP's default action ends a process at once; one that handles it is still there a second later
        expect(
          await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('running'), 1000))]),
          api.output(),
        ).to.equal('running');
        expect((await fetch(`${api.url}/readyz`)).status).to.equal(200);
      } finally {
        await api.stop();
      }
    });
  }

  it('refuses to start with a bad configuration, naming the variable (exit 78)', () => {
    const result = startApi({ PORT: 'eighty' });
    expect(result.status).to.equal(78);
    expect(result.stderr).to.include('PORT');
  });

  it('refuses to start with a TRUST_PROXY Express cannot use, in one line naming it (exit 78, no stack trace)', () => {
    for (const value of ['garbage', '10.0.0.0/33', '-1', 'loopback,,10.0.0.1']) {
      const result = startApi({ REDIS_URL: testRedisUrl(), TRUST_PROXY: value });
      expect(result.status, `${value}: ${result.stderr}`).to.equal(78);
      expect(result.stderr).to.match(/^dialog-relay api: bad configuration: TRUST_PROXY: /);
      expect(result.stderr.trim().split('\n'), result.stderr).to.have.length(1);
    }
  });

  it('hands Express only TRUST_PROXY values its trust proxy setting takes', () => {
    for (const value of [
      'true',
      '3',
      'loopback, linklocal, uniquelocal',
      '10.0.0.0/8, 192.168.1.7, fc00::/7, ::ffff:10.0.0.1/104, 172.16.0.0/255.240.0.0',
    ]) {
      expect(() => express().set('trust proxy', loadConfig({ TRUST_PROXY: value }).ingress.trustProxy), value).not.to.throw();
    }
  });

  it('refuses to start with two Redis modes, naming both (exit 78)', () => {
    const result = startApi({ REDIS_URL: testRedisUrl(), REDIS_CLUSTER_NODES: '127.0.0.1:7001' });
    expect(result.status).to.equal(78);
    expect(result.stderr).to.include('REDIS_URL and REDIS_CLUSTER_NODES are both set');
  });

  it('refuses to start with CLIENTS holding a rate_limit_per_s below 1, naming CLIENTS and the client (exit 78)', () => {
    const result = startApi({
      REDIS_URL: testRedisUrl(),
      CLIENTS: JSON.stringify({ shop: { secret: 'shop-secret-0001', rate_limit_per_s: 0.5 } }),
    });
    expect(result.status, result.stderr).to.equal(78);
    expect(result.stderr).to.match(
      /^dialog-relay api: bad configuration: CLIENTS: client "shop": rate_limit_per_s is 0.5; it must be a whole number from 1 /,
    );
  });

  describe('with a bad KNOWLEDGE_FILE', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'api-knowledge-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const start = (knowledgeFile: string) =>
      startApi({
        PORT: '0',
        HOST: '127.0.0.1',
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: uniquePrefix('aknow'),
        KNOWLEDGE_FILE: knowledgeFile,
      });

    it('refuses to start when the file does not exist, with one line naming KNOWLEDGE_FILE (exit 78, no stack trace)', () => {
      const missing = join(dir, 'absent.yaml');
      const result = start(missing);
      expect(result.status, result.stderr).to.equal(78);
      expect(
        result.stderr.startsWith(`dialog-relay api: bad configuration: KNOWLEDGE_FILE: ${missing}: cannot read: `),
        result.stderr,
      ).to.equal(true);
      expect(result.stderr).to.include('ENOENT');
      expect(result.stderr.trim().split('\n')).to.have.length(1);
    });

    it('refuses to start when the file is not a valid FAQ, naming the file and the problem (exit 78)', () => {
      const json = join(dir, 'broken.json');
      writeFileSync(json, '{"fallback": "x", "entries": [');
      const result = start(json);
      expect(result.status, result.stderr).to.equal(78);
      expect(result.stderr).to.match(
        new RegExp(`^dialog-relay api: bad configuration: KNOWLEDGE_FILE: ${json.replaceAll('.', '\\.')}: invalid JSON: [^\n]*\n$`),
      );
    });
  });
});
