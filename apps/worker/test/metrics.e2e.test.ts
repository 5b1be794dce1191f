import { waitUntil } from '@dialog-relay/testkit';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { WorkerRuntime } from '../src/index.js';
import { startInProcess, type InProcess } from './support/in-process.js';
import { exposedNames, namesIn, PROMETHEUS_SERIES } from './support/metric-names.js';
import { askWhenOpen } from './support/ask-shop.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const TOKEN = 'metrics-token-0123456789';
const OPS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'ops');
interface Dashboard {
  panels: { type: string; title: string; targets?: { expr: string }[] }[];
}
interface RuleFile {
  groups: { rules: { alert: string; expr: string }[] }[];
}

/** One Prometheus sample's value ("name{labels} value"), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('worker metrics (METRICS_PORT, behind ADMIN_TOKEN)', () => {
  let system: InProcess;
  let apiUrl: string;
  let worker: WorkerRuntime;
  let receiver: Receiver;
  let sequence = 0;

  before(async () => {
    system = await startInProcess('metrics', { HOST: '127.0.0.1', METRICS_PORT: '0', ADMIN_TOKEN: TOKEN });
    ({ apiUrl, worker } = system);
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await system.close();
  });

  const scrape = async (token = TOKEN): Promise<{ status: number; text: string }> => {
    const response = await fetch(worker.metricsUrl!, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, text: await response.text() };
  };
  const send = async (customer: string, sendUrl: string): Promise<void> => {
    const now = Math.floor(Date.now() / 1000);
    const response = await askWhenOpen(apiUrl, { msgId: `metrics-${++sequence}-${now}`, customer, sendUrl });
    expect(response.status).to.equal(202);
  };

  it('serves metrics on loopback only with the admin token', async () => {
    expect(worker.metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await scrape('wrong-token-0123456789')).status).to.equal(401);
    const anonymous = await fetch(worker.metricsUrl!);
    expect(anonymous.status).to.equal(401);
    expect(await anonymous.json()).to.include({ code: 401, error: 'unauthorized' });
    expect((await scrape()).status).to.equal(200);
    // RFC 9110 §11.1: the scheme name is case-insensitive
    expect((await fetch(worker.metricsUrl!, { headers: { authorization: `bearer ${TOKEN}` } })).status).to.equal(200);
  });

  it('counts a delivered reply: attempt by status class, accept-to-delivered, engine, turn and last job time', async () => {
    await send('metrics-customer-1', receiver.url);
    await receiver.waitFor(1);
    let text = '';
    await waitUntil(async () => {
      text = (await scrape()).text;
      return sample(text, 'dialog_relay_reply_accept_to_delivered_seconds_count') >= 1;
    }, 10_000);
    expect(sample(text, 'dialog_relay_delivery_attempts_total{result="delivered",status_class="2xx"}')).to.equal(1);
    expect(sample(text, 'dialog_relay_engine_duration_seconds_count{outcome="reply"}')).to.equal(1);
    expect(sample(text, 'dialog_relay_replies_total{engine="knowledge",outcome="answered"}')).to.equal(1);
    expect(sample(text, 'dialog_relay_turn_duration_seconds_count{outcome="finished"}')).to.be.at.least(1);
    expect(sample(text, 'dialog_relay_worker_last_job_timestamp_seconds')).to.be.above(Date.now() / 1000 - 60);
    expect(text).to.match(/^dialog_relay_oldest_waiting_reply_age_seconds \d/m);
    expect(text).to.match(/^dialog_relay_worker_process_cpu_seconds_total /m);
  });

  it('delivers a body and headers that the OpenAPI callback describes', async () => {
    const earlier = receiver.requests.length;
    await send('metrics-customer-3', receiver.url);
    const delivery = (await receiver.waitFor(earlier + 1))[earlier];
    const doc = (await (await fetch(`${apiUrl}/openapi.json`)).json()) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false });
    ajv.addSchema(doc, 'openapi.json');
    const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/DeliveryPayload' });
    expect(validate(JSON.parse(delivery!.raw)), ajv.errorsText(validate.errors)).to.equal(true);
    const callback = (
      doc['components'] as {
        callbacks: { AutoReply: Record<string, { post: { parameters: { name: string; schema: { pattern?: string } }[] } }> };
      }
    ).callbacks.AutoReply;
    for (const parameter of Object.values(callback)[0]!.post.parameters) {
      const value = delivery!.headers[parameter.name];
      expect(value, parameter.name).to.be.a('string');
      if (parameter.schema.pattern !== undefined) expect(value).to.match(new RegExp(parameter.schema.pattern));
    }
  });

  it('exposes every metric the Grafana dashboard and the alert rules name', async () => {
    const worker_ = await scrape();
    const apiScrape = await fetch(`${apiUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(apiScrape.status).to.equal(200);
    const exposed = new Set([...exposedNames(worker_.text), ...exposedNames(await apiScrape.text()), ...PROMETHEUS_SERIES]);

    const dashboard = JSON.parse(readFileSync(join(OPS, 'grafana', 'dialog-relay.json'), 'utf8')) as Dashboard;
    const graphs = dashboard.panels.filter((p) => p.type !== 'row');
    expect(graphs.length).to.be.at.least(10);
    const rules = (parse(readFileSync(join(OPS, 'prometheus', 'alerts.yml'), 'utf8')) as RuleFile).groups.flatMap((g) => g.rules);
    expect(rules.length).to.be.at.least(8);
    const named = [
      ...graphs.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr }))),
      ...rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
    ];
    for (const { where, expr } of named) {
      const names = namesIn(expr);
      expect(names, `${where} names no metric: ${expr}`).not.to.be.empty;
      for (const name of names) expect(exposed.has(name), `${where} names ${name}, which /metrics does not expose`).to.equal(true);
    }
    // The panels an operator needs, each backed by its metric.
    const used = new Set(named.flatMap((n) => namesIn(n.expr)));
    for (const needed of [
      'dialog_relay_http_requests_total',
      'dialog_relay_http_errors_total',
      'dialog_relay_http_request_duration_seconds_bucket',
      'dialog_relay_queue_jobs',
      'dialog_relay_delivery_attempts_total',
      'dialog_relay_reply_accept_to_delivered_seconds_bucket',
      'dialog_relay_dead_letters_total',
      'dialog_relay_queue_workers',
      'dialog_relay_engine_duration_seconds_bucket',
      'dialog_relay_oldest_waiting_reply_age_seconds',
      'dialog_relay_worker_last_job_timestamp_seconds',
      'dialog_relay_reply_cancellations_total',
      'dialog_relay_stop_latency_seconds_bucket',
      'dialog_relay_abort_latency_seconds_bucket',
      'dialog_relay_dead_letters_stored',
      'dialog_relay_queue_due_jobs',
      'dialog_relay_replies_total',
    ]) {
      expect(used.has(needed), `nothing shows ${needed}`).to.equal(true);
    }
  });

  it('gives every metric family of the API and the worker its own base name (OpenMetrics: a counter x_total owns x)', async () => {
    const apiScrape = await fetch(`${apiUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    // A family both processes expose (same name, same type) is one family; anything else claiming its names is a clash.
    const owners = new Map<string, { where: string; family: string }>();
    for (const [where, text] of [
      ['worker', (await scrape()).text],
      ['api', await apiScrape.text()],
    ] as const) {
      for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        const [, name, type] = match as unknown as [string, string, string];
        const family = `${type} ${name}`;
        const base = type === 'counter' ? name.replace(/_total$/, '') : name;
        const suffixes =
          type === 'counter'
            ? ['', '_total', '_created']
            : type === 'histogram' || type === 'summary'
              ? ['', '_bucket', '_sum', '_count', '_created']
              : [''];
        for (const claimed of suffixes.map((suffix) => `${base}${suffix}`)) {
          const owner = owners.get(claimed);
          if (owner !== undefined)
            expect(owner.family, `${where} ${family} claims ${claimed}, already claimed by ${owner.where} ${owner.family}`).to.equal(
              family,
            );
          owners.set(claimed, { where, family });
        }
      }
    }
    expect(owners.get('dialog_relay_dead_letters_stored')?.family).to.equal('gauge dialog_relay_dead_letters_stored');
    expect(owners.get('dialog_relay_dead_letters_total')?.family).to.equal('counter dialog_relay_dead_letters_total');
  });

  it('counts a permanent failure as a dead letter by reason, with its 4xx attempt', async () => {
    const refusing = await startReceiver((_r, _i, res) => res.writeHead(410).end('gone'));
    try {
      await send('metrics-customer-2', refusing.url);
      await refusing.waitFor(1);
      let text = '';
      await waitUntil(async () => {
        text = (await scrape()).text;
        return sample(text, 'dialog_relay_dead_letters_total{reason="permanent_status"}') >= 1;
      }, 10_000);
      expect(sample(text, 'dialog_relay_delivery_attempts_total{result="dead",status_class="4xx"}')).to.equal(1);
    } finally {
      await refusing.close();
    }
  });
});
