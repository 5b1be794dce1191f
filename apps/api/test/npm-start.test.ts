import { loadConfig } from '@dialog-relay/config';
import { createRedis, createRedisKeys, waitForRedis } from '@dialog-relay/redis';
import { signRequestBody } from '@dialog-relay/signing';
import { freePort, startRedisServer, testRedisUrl, waitUntil } from '@dialog-relay/testkit';
import { Redis } from 'ioredis';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningAddresses } from './support/process-tree.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const START = join(ROOT, 'scripts/start.mjs');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The state file npm start writes while it runs (scripts/service-state.mjs): one of the tests', not the checkout's own. */
const STATE_DIR = mkdtempSync(join(tmpdir(), 'dr-npm-start-'));

/** The environment of a user's shell: none of the variables npm start decides about. */
const userEnv = (): Record<string, string | undefined> => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['CLIENTS', 'REDIS_PREFIX', 'ALLOW_PRIVATE_SEND_URLS', 'ADMIN_TOKEN', 'HOST', 'PORT'].includes(name),
    ),
  ),
  DIALOG_RELAY_STATE_FILE: join(STATE_DIR, 'service.json'),
});

function watch(child: ChildProcess): Started {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

/** `npm start` as a user runs it (the tree is built already), in a real process; HOST left to its default. */
function start(env: Record<string, string>): Started {
  return watch(spawn(process.execPath, [START], { env: { ...userEnv(), LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** `npm run <script> -- <args>` of this checkout, run as npm runs it (sh -c in the root, the arguments appended), in a process group of its own. */
function npmScript(name: string, env: Record<string, string>, args: string[] = []): Started {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const command = scripts[name];
  expect(command, `npm script ${name}`).to.be.a('string');
  return watch(
    spawn('sh', ['-c', `${command ?? 'false'} "$@"`, 'sh', ...args], {
      cwd: ROOT,
      detached: true,
      env: { ...userEnv(), LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode === null) started.child.kill('SIGTERM');
  await started.exited;
}

async function stopGroup(started: Started): Promise<void> {
  if (started.child.exitCode === null && started.child.pid !== undefined) process.kill(-started.child.pid, 'SIGTERM');
  await started.exited;
}

const IPV4_LOOPBACK = '0100007F';
const IPV6_LOOPBACK = '00000000000000000000000001000000';
const ADMIN_TOKEN = 'npm-start-admin-token-01';

describe('npm start', function () {
  this.timeout(60_000);

  it('says the port is taken and exits non-zero when another process listens on it', async () => {
    // Another process that even answers /readyz: start must not mistake it for its own API.
    const other: Server = createServer((_req, res) => res.writeHead(200).end('{}'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    const started = start({ PORT: String(port), REDIS_URL: testRedisUrl() });
    try {
      expect(await started.exited).to.not.equal(0);
      expect(started.output(), started.output()).to.include(`port ${port} on 127.0.0.1 is already in use`);
      expect(started.output()).to.not.include('API ready');
    } finally {
      await stop(started);
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('says in one plain line that Redis is unreachable and how to fix it, and exits non-zero', async () => {
    const closed = await freePort();
    const started = start({ PORT: String(await freePort()), REDIS_URL: `redis://127.0.0.1:${closed}` });
    const exit = await Promise.race([started.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 20_000))]);
    await stop(started);
    expect(exit, started.output()).to.not.equal('running');
    expect(exit).to.not.equal(0);
    const lines = started.output().trim().split('\n');
    expect(lines, started.output()).to.have.length(1);
    expect(lines[0]).to.match(/Redis at redis:\/\/127\.0\.0\.1:\d+ is not reachable.*REDIS_URL/);
    expect(lines[0]).to.not.include('{');
  });

  it('never prints the password of a REDIS_URL it cannot use: one with "@" in it, one in a query option, or one in a URL that does not parse', async () => {
    const closed = await freePort();
    for (const url of [
      `redis://:p@ss-hunter2@127.0.0.1:${closed}`,
      `redis://127.0.0.1:${closed}/0?password=hunter2`,
      'redis://:hunter2/x@127.0.0.1:1',
    ]) {
      const started = start({ PORT: String(await freePort()), REDIS_URL: url });
      const exit = await Promise.race([started.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 20_000))]);
      await stop(started);
      expect(exit, started.output()).to.not.equal('running');
      expect(exit).to.not.equal(0);
      expect(started.output(), url).to.match(/REDIS_URL/);
      expect(started.output(), url).to.not.include('hunter2');
    }
  });

  it('runs a private redis-server when REDIS_URL is not set, whatever answers on 127.0.0.1:6379, and stops it on exit', async () => {
    const port = await freePort();
    const started = watch(
      spawn(process.execPath, [START], {
        env: {
          ...Object.fromEntries(Object.entries(userEnv()).filter(([name]) => !name.startsWith('REDIS_'))),
          LOG_LEVEL: 'warn',
          PORT: String(port),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let redisPort = 0;
    try {
      // The banner's last line: the three lines may reach this process in separate reads.
      await waitUntil(() => started.output().includes('finds it by itself') || started.child.exitCode !== null, 40_000);
      expect(started.output(), started.output()).to.include('API ready');
      redisPort = Number(/Redis: a private redis-server on port (\d+)/.exec(started.output())?.[1] ?? 0);
      expect(redisPort, started.output()).to.be.above(0);
      expect(redisPort).to.not.equal(6379);
      // The three lines the README promises once it is up: where it listens, where to read and look, which Redis.
      const lines = started.output().split('\n');
      const ready = lines.findIndex((line) => line.startsWith('[dialog-relay] API ready'));
      expect(lines.slice(ready, ready + 3), started.output()).to.deep.equal([
        `[dialog-relay] API ready at http://127.0.0.1:${port}   (worker running beside it)`,
        `[dialog-relay] reference: http://127.0.0.1:${port}/docs · dashboard: http://127.0.0.1:${port}/admin/queues (set ADMIN_TOKEN to open it)`,
        `[dialog-relay] Redis: REDIS_URL=redis://127.0.0.1:${redisPort} REDIS_PREFIX=${/REDIS_PREFIX=(dr:[0-9a-f]{8}:) /.exec(lines[ready + 2] ?? '')?.[1] ?? '(none)'} (npm run cli of this checkout finds it by itself)`,
      ]);
    } finally {
      await stop(started);
    }
    // Stopped with npm start: nothing answers on its port any more.
    const { createConnection } = await import('node:net');
    const answers = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port: redisPort });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    expect(answers).to.equal(false);
  });

  it('writes a state file (mode 0600) naming its Redis and prefix once ready, which npm run cli uses without REDIS_URL, and removes it on exit', async () => {
    const port = await freePort();
    const stateFile = join(STATE_DIR, 'own.json');
    const started = start({ PORT: String(port), REDIS_URL: testRedisUrl(), DIALOG_RELAY_STATE_FILE: stateFile });
    try {
      await waitUntil(() => started.output().includes('API ready') || started.child.exitCode !== null, 40_000);
      expect(existsSync(stateFile), started.output()).to.equal(true);
      expect(statSync(stateFile).mode & 0o777).to.equal(0o600);
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { env: Record<string, string> };
      expect(state.env['REDIS_URL']).to.equal(testRedisUrl());
      expect(state.env['REDIS_PREFIX']).to.match(/^dr:[0-9a-f]{8}:$/);
      const env = Object.fromEntries(
        Object.entries(userEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('REDIS_')),
      );
      const cli = npmScript('cli', { ...env, DIALOG_RELAY_STATE_FILE: stateFile }, ['clients', 'list', '--json']);
      expect(await cli.exited, cli.output()).to.equal(0);
    } finally {
      await stop(started);
    }
    expect(existsSync(stateFile)).to.equal(false);
  });

  it('names a Redis with a password in its banner without the password, and npm run cli still reaches it through the state file', async () => {
    const password = 'pw-not-to-be-printed-7f3a';
    const server = await startRedisServer();
    const admin = new Redis(server.url);
    await admin.config('SET', 'requirepass', password);
    admin.disconnect();
    const port = await freePort();
    const stateFile = join(STATE_DIR, 'password.json');
    const started = start({
      PORT: String(port),
      REDIS_URL: `redis://:${password}@127.0.0.1:${server.port}`,
      DIALOG_RELAY_STATE_FILE: stateFile,
    });
    try {
      await waitUntil(() => started.output().includes('curl -s') || started.child.exitCode !== null, 40_000);
      expect(started.output(), started.output()).to.include(
        `[dialog-relay] Redis: REDIS_URL=redis://***@127.0.0.1:${server.port} REDIS_PREFIX=dr:`,
      );
      expect(started.output()).to.not.include(password);
      const env = Object.fromEntries(
        Object.entries(userEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith('REDIS_')),
      );
      const cli = npmScript('cli', { ...env, DIALOG_RELAY_STATE_FILE: stateFile }, ['clients', 'list', '--json']);
      expect(await cli.exited, cli.output()).to.equal(0);
      expect(cli.output()).to.not.include(password);
    } finally {
      await stop(started);
      await server.dispose();
    }
  });

  it('reports the API ready and prints a curl that works when HOST is the IPv6 loopback ::1', async () => {
    const port = await freePort();
    const started = start({ PORT: String(port), REDIS_URL: testRedisUrl(), HOST: '::1' });
    try {
      await waitUntil(() => started.output().includes('curl -s') || started.child.exitCode !== null, 40_000);
      expect(started.output(), started.output()).to.include(`API ready at http://[::1]:${port}`);
      expect(started.output(), started.output()).to.include(`curl -s http://[::1]:${port}/custom-im/chat-messages`);
    } finally {
      await stop(started);
    }
  });

  describe('with the demo client', () => {
    let started: Started;
    let receiver: Server;
    let received: { raw: string; headers: IncomingHttpHeaders }[] = [];
    let port = 0;
    before(async () => {
      receiver = createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        req.on('end', () => {
          received.push({ raw, headers: req.headers });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      port = await freePort();
      started = start({ PORT: String(port), REDIS_URL: testRedisUrl(), AUTO_REPLY_DEBOUNCE_MS: '0', ADMIN_TOKEN });
      // The demo lines follow "API ready" in separate writes: wait for the last one (the signed curl).
      await waitUntil(() => started.output().includes('curl -s') || started.child.exitCode !== null, 40_000);
      expect(started.output(), started.output()).to.include('API ready');
    });
    after(async () => {
      await stop(started);
      await new Promise((resolve) => receiver.close(resolve));
      received = [];
    });

    const printedPrefix = (): string =>
      /Redis keys under prefix "(dr:[0-9a-f]{8}:)" \(this checkout's own; set REDIS_PREFIX to share\)/.exec(started.output())?.[1] ?? '';
    /** The demo client's request secret, as npm start printed it. */
    const demoSecret = (): string => /secret "([^"]+)"/.exec(started.output())?.[1] ?? '';
    const demoClients = (): string => JSON.stringify({ demo: { secret: demoSecret(), allow_private_send_urls: true } });
    const workersServing = async (): Promise<number> => {
      const metrics = await (
        await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).text();
      return Number(/^dialog_relay_queue_workers (\d+)/m.exec(metrics)?.[1] ?? 'NaN');
    };
    /** The demo client asks the API on `apiPort` "When are you open?" (auto_dialog, signed); the reply goes to the receiver. */
    const askDemo = (apiPort: number): Promise<Response> => {
      const now = Math.floor(Date.now() / 1000);
      const body: Record<string, unknown> = {
        client: 'demo',
        timestamp: now,
        send_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        message_info: {
          msg_id: `start-${now}-${Math.random().toString(36).slice(2)}`,
          from_user_id: 'customer-1',
          to_user_id: 'bot-1',
          content: 'When are you open?',
          message_type: 1,
          event_type: 'auto_dialog',
          from_user_type: 2,
          create_timestamp: now,
        },
      };
      body['signature'] = signRequestBody(body, demoSecret(), 'hmac-sha256');
      return fetch(`http://127.0.0.1:${apiPort}/custom-im/chat-messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    };

    it('listens on 127.0.0.1 only when HOST is not set', () => {
      const addresses = listeningAddresses(port);
      expect(addresses, 'sockets listening on the port').to.not.deep.equal([]);
      expect(
        addresses.every((address) => address === IPV4_LOOPBACK || address === IPV6_LOOPBACK),
        addresses.join(', '),
      ).to.equal(true);
      expect(started.output(), started.output()).to.include(`API ready at http://127.0.0.1:${port}`);
    });

    it('keeps its keys in Redis under a prefix of its own for this checkout', async () => {
      const prefix = printedPrefix();
      expect(prefix, started.output()).to.match(/^dr:[0-9a-f]{8}:$/);
      const redis = createRedis(loadConfig({ REDIS_URL: testRedisUrl() }).redis, 'request', { name: 'npm-start-test' });
      redis.on('error', () => undefined);
      try {
        await waitForRedis(redis, 5000);
        expect(await redis.exists(createRedisKeys(prefix).shardCount)).to.equal(1);
        const [, keys] = await redis.scan('0', 'MATCH', `${prefix}*`, 'COUNT', 1000);
        expect(keys.length).to.be.greaterThan(0);
      } finally {
        redis.disconnect();
      }
    });

    it('npm run start:worker of the same checkout serves the queues npm start feeds', async () => {
      await waitUntil(async () => (await workersServing()) === 1, 20_000);
      const worker = npmScript('start:worker', { REDIS_URL: testRedisUrl(), CLIENTS: demoClients() });
      try {
        await waitUntil(async () => (await workersServing()) === 2 || worker.child.exitCode !== null, 40_000);
        expect(await workersServing(), worker.output()).to.equal(2);
      } finally {
        await stopGroup(worker);
      }
    });

    it('npm run start:api of the same checkout queues to the workers npm start runs', async () => {
      const apiPort = await freePort();
      const api = npmScript('start:api', {
        REDIS_URL: testRedisUrl(),
        CLIENTS: demoClients(),
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        AUTO_REPLY_DEBOUNCE_MS: '0',
      });
      try {
        await waitUntil(
          async () =>
            (await fetch(`http://127.0.0.1:${apiPort}/readyz`).then(
              (r) => r.ok,
              () => false,
            )) || api.child.exitCode !== null,
          40_000,
        );
        const before = received.length;
        const answer = await askDemo(apiPort);
        expect(answer.status, `${await answer.text()} ${api.output()}`).to.equal(202);
        await waitUntil(() => received.length > before, 20_000);
      } finally {
        await stopGroup(api);
      }
    });

    it("npm run cli of the same checkout lists the deliveries npm start made (the README's integrator commands)", async () => {
      const before = received.length;
      const answer = await askDemo(port);
      expect(answer.status).to.equal(202);
      const conversation = ((await answer.json()) as { data: { conversation_id: string } }).data.conversation_id;
      await waitUntil(() => received.length > before, 20_000);
      const cli = npmScript('cli', { REDIS_URL: testRedisUrl() }, ['deliveries', 'list', '--conversation', conversation, '--json']);
      expect(await cli.exited, cli.output()).to.equal(0);
      const printed = cli
        .output()
        .split('\n')
        .find((line) => line.startsWith('{"deliveries"'));
      expect(printed, cli.output()).to.be.a('string');
      const { deliveries } = JSON.parse(printed ?? '{}') as { deliveries: { conversation_id: string }[] };
      // Earlier tests of this block may have delivered in the same conversation too.
      expect(deliveries.length, cli.output()).to.be.greaterThan(0);
      expect(deliveries.every((d) => d.conversation_id === conversation)).to.equal(true);
    });

    it('delivers to a loopback send_url for the demo client, signed with the webhook secret the README shows', async () => {
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const secret = /demo client's webhook secret is\s+`(whsec_[A-Za-z0-9+/=]+)`/.exec(readme)?.[1];
      expect(secret, 'the README names the demo webhook secret').to.be.a('string');
      expect(started.output(), started.output()).to.include(`webhook secret ${secret ?? ''}`);

      const answer = await askDemo(port);
      expect(answer.status, await answer.text()).to.equal(202);
      await waitUntil(() => received.length > 0, 20_000);

      // The verify snippet of docs/integrating.md, run as an integrator would paste it.
      const guide = readFileSync(join(ROOT, 'docs', 'integrating.md'), 'utf8');
      const snippet = /```js\n((?:(?!```)[\s\S])*?function verifyDelivery[\s\S]*?)```/.exec(guide)?.[1];
      expect(snippet, 'the verify snippet of docs/integrating.md').to.be.a('string');
      const file = join(mkdtempSync(join(tmpdir(), 'readme-snippet-')), 'verify.mjs');
      writeFileSync(file, `${snippet ?? ''}\nexport { verifyDelivery };\n`);
      const { verifyDelivery } = (await import(file)) as {
        verifyDelivery: (raw: string, headers: IncomingHttpHeaders, secret: string) => boolean;
      };
      const delivery = received[0];
      expect(delivery).to.not.equal(undefined);
      expect(verifyDelivery(delivery?.raw ?? '', delivery?.headers ?? {}, secret ?? '')).to.equal(true);
      expect(verifyDelivery(`${delivery?.raw ?? ''} `, delivery?.headers ?? {}, secret ?? '')).to.equal(false);
    });
  });
});
