import { loadConfig } from '@dialog-relay/config';
import { signRequestBody } from '@dialog-relay/signing';
import { waitUntil } from '@dialog-relay/testkit';
import { startTracing, type Tracing } from '@dialog-relay/tracing';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { startInProcess, type InProcess } from './support/in-process.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT), with an in-memory exporter', () => {
  let exporter: InMemorySpanExporter;
  let tracing: Tracing;
  let system: InProcess;
  let apiUrl: string;
  let receiver: Receiver;

  before(async () => {
    exporter = new InMemorySpanExporter();
    tracing = startTracing({ serviceName: 'dialog-relay-test', version: 'test', exporter })!;
    system = await startInProcess('traces', {}, tracing);
    ({ apiUrl } = system);
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await system.close();
    await tracing.shutdown();
  });

  it('follows one message from the HTTP request through the queue and the worker to the delivery POST in one trace', async () => {
    const now = Math.floor(Date.now() / 1000);
    const body: Record<string, unknown> = {
      client: 'shop', timestamp: now, send_url: receiver.url,
      message_info: { msg_id: `trace-${now}`, from_user_id: 'trace-customer', to_user_id: 'bound', content: 'When are you open?', message_type: 1, event_type: 'auto_dialog', from_user_type: 2, create_timestamp: now },
    };
    body['signature'] = signRequestBody(body, 'shop-secret-0001', 'hmac-sha256');
    const response = await fetch(`${apiUrl}/custom-im/chat-messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(response.status).to.equal(202);
    await receiver.waitFor(1);
    await waitUntil(() => Promise.resolve(exporter.getFinishedSpans().some((s) => s.name === 'POST send_url')), 10_000);

    const spans = exporter.getFinishedSpans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const request = spans.find((s) => s.name === 'POST /custom-im/chat-messages');
    const delivery = spans.find((s) => s.name === 'POST send_url');
    expect(request, spans.map((s) => s.name).join(', ')).to.not.equal(undefined);
    expect(delivery!.attributes['http.response.status_code']).to.equal(200);
    expect(delivery!.spanContext().traceId, 'the delivery is in the request\'s trace').to.equal(request!.spanContext().traceId);

    // Walk up from the delivery POST: the worker's job span, the queue's add span, the request span.
    const chain: string[] = [];
    for (let span: ReadableSpan | undefined = delivery; span !== undefined; span = byId.get(parentOf(span) ?? '')) chain.push(span.name);
    expect(chain[0]).to.equal('POST send_url');
    expect(chain.at(-1)).to.equal('POST /custom-im/chat-messages');
    expect(chain.some((name) => name.startsWith('process'))).to.equal(true);
    expect(chain.some((name) => name.startsWith('add'))).to.equal(true);
    expect(spans.some((s) => s.name === 'reply engine' && s.spanContext().traceId === request!.spanContext().traceId)).to.equal(true);
  });

  it('is off when no endpoint is set: startTracing makes nothing, and the config reads the variable', () => {
    expect(startTracing({ serviceName: 'x', version: 'x', endpoint: undefined })).to.equal(undefined);
    expect(startTracing({ serviceName: 'x', version: 'x', endpoint: '' })).to.equal(undefined);
    expect(loadConfig({}).otelEndpoint).to.equal(undefined);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).otelEndpoint).to.equal('http://127.0.0.1:4318');
  });
});
