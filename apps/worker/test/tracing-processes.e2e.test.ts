import { freePort, MODULE_RECORDER, testRedisUrl, uniquePrefix, waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { askWhenOpen } from './support/ask-shop.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const WORKER_MAIN = join(HERE, '..', 'src', 'main.js');
const API_MAIN = join(HERE, '..', '..', '..', 'api', 'dist', 'src', 'main.js');
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** OTLP/HTTP JSON as the exporter sends it, reduced to what the test reads. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
}
interface OtlpBody {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: Omit<ExportedSpan, 'service'>[] }[];
  }[];
}

/** A local OTLP/HTTP collector on loopback: keeps every span POSTed to /v1/traces. */
async function startTraceSink(): Promise<{ url: string; spans: ExportedSpan[]; close(): Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces' && (req.headers['content-type'] ?? '').startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody;
        for (const resource of body.resourceSpans ?? []) {
          const service = resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resource.scopeSpans ?? []) for (const span of scope.spans ?? []) spans.push({ ...span, service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Run {
  apiModules: string[];
  workerModules: string[];
}

describe('tracing of the real API and worker processes', function () {
  this.timeout(90_000);
  let receiver: Receiver;
  let folder: string;
  let sequence = 0;
  before(async () => {
    receiver = await startReceiver();
    folder = mkdtempSync(join(tmpdir(), 'dialog-relay-modules-'));
  });
  after(async () => {
    await receiver.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Starts the API and a worker as processes, sends one auto_dialog message, waits for its delivery, stops both (exit 0). */
  async function deliverOneMessage(otel: Record<string, string>): Promise<Run> {
    const run = ++sequence;
    const port = await freePort();
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
    const env = {
      ...inherited,
      ...otel,
      HOST: '127.0.0.1',
      PORT: String(port),
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: uniquePrefix('otel-processes'),
      LOG_LEVEL: 'info',
      CLIENTS: JSON.stringify({ shop: { secret: 'shop-secret-0001', webhook_secret: WEBHOOK_SECRET } }),
      ALLOW_PRIVATE_SEND_URLS: 'true',
      AUTO_REPLY_DEBOUNCE_MS: '0',
    };
    const logs = { api: join(folder, `api-${run}.modules`), worker: join(folder, `worker-${run}.modules`) };
    const start = (main: string, log: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } => {
      const child = spawn(process.execPath, ['--import', MODULE_RECORDER, main], {
        env: { ...env, MODULE_LOG: log },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      return { child, output: () => output, exited: new Promise((resolve) => child.on('exit', resolve)) };
    };
    const api = start(API_MAIN, logs.api);
    const worker = start(WORKER_MAIN, logs.worker);
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitUntil(
        async () =>
          (await fetch(`${base}/readyz`).then(
            (r) => r.status,
            () => 0,
          )) === 200,
        20_000,
      );
      await waitUntil(() => Promise.resolve(worker.output().includes('worker started')), 20_000);
      const now = Math.floor(Date.now() / 1000);
      const before = receiver.requests.length;
      const accepted = await askWhenOpen(base, { msgId: `otel-${run}-${now}`, customer: `otel-customer-${run}`, sendUrl: receiver.url });
      expect(accepted.status).to.equal(202);
      await receiver.waitFor(before + 1, 20_000);
    } finally {
      api.child.kill('SIGTERM');
      worker.child.kill('SIGTERM');
    }
    expect(await api.exited, api.output()).to.equal(0);
    expect(await worker.exited, worker.output()).to.equal(0);
    const modules = (file: string): string[] =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '');
    return { apiModules: modules(logs.api), workerModules: modules(logs.worker) };
  }

  /** The module a recorded line names (without its importer). */
  const loaded = (line: string): string => line.split(' ')[1] ?? '';
  const opentelemetry = (modules: string[]): string[] =>
    modules.filter((m) => /@opentelemetry|bullmq-otel|packages\/tracing\//.test(loaded(m)));
  /** @opentelemetry/api is prom-client's own dependency (its exemplars): a no-op API while no provider is registered. */
  const beyondPromClientsApi = (modules: string[]): string[] =>
    opentelemetry(modules).filter((m) => !loaded(m).includes('/node_modules/@opentelemetry/api/'));

  it('loads no OpenTelemetry SDK, exporter or BullMQ telemetry in the API or the worker without OTEL_EXPORTER_OTLP_ENDPOINT, while delivering a message', async () => {
    const { apiModules, workerModules } = await deliverOneMessage({});

    for (const [name, modules] of [
      ['API', apiModules],
      ['worker', workerModules],
    ] as const) {
      // The recorder sees both kinds of loads: ES modules (bullmq) and require() (ioredis' own dependencies).
      expect(
        modules.some((m) => m.startsWith('import ') && loaded(m).includes('/node_modules/bullmq/')),
        name,
      ).to.equal(true);
      expect(
        modules.some((m) => m.startsWith('require ') && loaded(m).includes('/node_modules/denque/')),
        name,
      ).to.equal(true);
      expect(beyondPromClientsApi(modules), name).to.deep.equal([]);
      // The only OpenTelemetry code in the process is the API package prom-client requires for itself.
      const entries = modules.filter(
        (m) => / from /.test(m) && !m.split(' from ')[1]!.includes('/@opentelemetry/') && /@opentelemetry/.test(loaded(m)),
      );
      for (const entry of entries)
        expect(entry.split(' from ')[1], `${name}: who loads ${loaded(entry)}`).to.match(/\/node_modules\/prom-client\//);
    }
  });

  it('exports the spans of one message, from the API request through the queue and the worker to the delivery POST, in one trace to OTLP/HTTP', async () => {
    const sink = await startTraceSink();
    try {
      const { apiModules, workerModules } = await deliverOneMessage({
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      // The same recorder sees the SDK and the exporter when tracing is on.
      for (const modules of [apiModules, workerModules]) {
        expect(beyondPromClientsApi(modules).some((m) => loaded(m).includes('/@opentelemetry/sdk-trace-base/'))).to.equal(true);
        expect(beyondPromClientsApi(modules).some((m) => loaded(m).includes('/@opentelemetry/exporter-trace-otlp-http/'))).to.equal(true);
      }

      const request = sink.spans.find((s) => s.name === 'POST /custom-im/chat-messages');
      const delivery = sink.spans.find((s) => s.name === 'POST send_url');
      expect(request, sink.spans.map((s) => `${s.service}: ${s.name}`).join(', ')).not.to.equal(undefined);
      expect(delivery, sink.spans.map((s) => `${s.service}: ${s.name}`).join(', ')).not.to.equal(undefined);
      expect(request!.service).to.equal('dialog-relay-api');
      expect(delivery!.service).to.equal('dialog-relay-worker');
      expect(delivery!.traceId, "the delivery POST is in the request's trace").to.equal(request!.traceId);

      // Walk up from the delivery: the worker's job span, the queue's add span (in the API), the request span.
      const byId = new Map(sink.spans.map((s) => [s.spanId, s]));
      const chain: ExportedSpan[] = [];
      for (let span: ExportedSpan | undefined = delivery; span !== undefined; span = byId.get(span.parentSpanId ?? '')) chain.push(span);
      expect(chain.map((s) => s.name)).to.include('POST send_url');
      expect(chain.at(-1)?.name).to.equal('POST /custom-im/chat-messages');
      expect(
        chain.some((s) => s.name.startsWith('process') && s.service === 'dialog-relay-worker'),
        chain.map((s) => s.name).join(' < '),
      ).to.equal(true);
      expect(
        chain.some((s) => s.name.startsWith('add') && s.service === 'dialog-relay-api'),
        chain.map((s) => s.name).join(' < '),
      ).to.equal(true);
      expect(new Set(chain.map((s) => s.traceId))).to.deep.equal(new Set([request!.traceId]));
    } finally {
      await sink.close();
    }
  });
});
