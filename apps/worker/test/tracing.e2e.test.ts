import { loadConfig, SERVICE_VERSION } from '@dialog-relay/config';
import { waitUntil } from '@dialog-relay/testkit';
import { startTracing, type Tracing } from '@dialog-relay/tracing';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { startInProcess, type InProcess } from './support/in-process.js';
import { askWhenOpen } from './support/ask-shop.js';
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
    const { otelResource } = loadConfig({
      OTEL_SERVICE_NAME: 'relay-under-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,service.version=ignored',
    });
    tracing = startTracing({
      serviceName: otelResource.serviceName ?? 'unnamed',
      attributes: otelResource.attributes,
      version: SERVICE_VERSION,
      exporter,
    })!;
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
    const response = await askWhenOpen(apiUrl, { msgId: `trace-${now}`, customer: 'trace-customer', sendUrl: receiver.url });
    expect(response.status).to.equal(202);
    await receiver.waitFor(1);
    // The worker's job span ends after the delivery POST's, once the job is completed: wait for both.
    await waitUntil(
      () => Promise.resolve(['POST send_url', 'process'].every((name) => exporter.getFinishedSpans().some((s) => s.name.startsWith(name)))),
      10_000,
    );

    const spans = exporter.getFinishedSpans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const request = spans.find((s) => s.name === 'POST /custom-im/chat-messages');
    const delivery = spans.find((s) => s.name === 'POST send_url');
    expect(request, spans.map((s) => s.name).join(', ')).to.not.equal(undefined);
    expect(delivery!.attributes['http.response.status_code']).to.equal(200);
    expect(delivery!.spanContext().traceId, "the delivery is in the request's trace").to.equal(request!.spanContext().traceId);

    // Walk up from the delivery POST: the worker's job span, the queue's add span, the request span.
    const chain: string[] = [];
    for (let span: ReadableSpan | undefined = delivery; span !== undefined; span = byId.get(parentOf(span) ?? '')) chain.push(span.name);
    expect(chain[0]).to.equal('POST send_url');
    expect(chain.at(-1)).to.equal('POST /custom-im/chat-messages');
    expect(chain.some((name) => name.startsWith('process'))).to.equal(true);
    expect(chain.some((name) => name.startsWith('add'))).to.equal(true);
    expect(spans.some((s) => s.name === 'reply engine' && s.spanContext().traceId === request!.spanContext().traceId)).to.equal(true);
  });

  it("continues the trace of an incoming traceparent header: the request span is the caller's span's child", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const response = await fetch(`${apiUrl}/healthz`, {
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01`, tracestate: 'vendor=x' },
    });
    expect(response.status).to.equal(200);
    await waitUntil(() => Promise.resolve(exporter.getFinishedSpans().some((s) => s.name === 'GET /healthz')), 10_000);
    const span = exporter.getFinishedSpans().find((s) => s.name === 'GET /healthz')!;
    expect(span.spanContext().traceId).to.equal(traceId);
    expect(parentOf(span)).to.equal(callerSpanId);
    expect(span.spanContext().traceState?.get('vendor')).to.equal('x');
    // Without the header, a request starts a trace of its own.
    await fetch(`${apiUrl}/readyz`);
    await waitUntil(() => Promise.resolve(exporter.getFinishedSpans().some((s) => s.name === 'GET /readyz')), 10_000);
    const own = exporter.getFinishedSpans().find((s) => s.name === 'GET /readyz')!;
    expect(own.spanContext().traceId).to.not.equal(traceId);
    expect(parentOf(own)).to.equal(undefined);
  });

  it("names the service and its resource from OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, with the release's version", () => {
    const span = exporter.getFinishedSpans()[0]!;
    expect(span.resource.attributes).to.deep.include({
      'service.name': 'relay-under-test',
      'deployment.environment.name': 'test',
      'service.version': SERVICE_VERSION,
    });
  });

  it('is off when no endpoint is set: startTracing makes nothing, and the config reads the variable', () => {
    expect(startTracing({ serviceName: 'x', version: 'x', endpoint: undefined })).to.equal(undefined);
    expect(startTracing({ serviceName: 'x', version: 'x', endpoint: '' })).to.equal(undefined);
    expect(loadConfig({}).otelEndpoint).to.equal(undefined);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).otelEndpoint).to.equal('http://127.0.0.1:4318');
  });
});
