import { context, propagation, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { BullMQOtel } from 'bullmq-otel';

/**
 * Tracing of one process: a message's trace runs from the API's HTTP request through the BullMQ
 * job (BullMQ's own telemetry, carried in the job) and the worker to the delivery POST. Created only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set (or a test hands an exporter): otherwise nothing is
 * loaded into the request path.
 */
export interface Tracing {
  tracer: Tracer;
  /** BullMQ's telemetry option, for the queue and the worker. */
  bullmq: BullMQOtel;
  /** Runs `work` in a new active span; ends it when `work` settles (an error marks it). */
  inSpan<T>(name: string, kind: 'server' | 'client' | 'internal', attributes: Record<string, string | number>, work: (span: Span) => Promise<T>): Promise<T>;
  /** Exports what is left and unregisters the global provider. */
  shutdown(): Promise<void>;
}

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL } as const;

export interface TracingOptions {
  serviceName: string;
  version: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://127.0.0.1:4318 (spans go to <endpoint>/v1/traces). */
  endpoint?: string | undefined;
  /** Replaces the OTLP exporter, spans exported one by one (tests: an InMemorySpanExporter). */
  exporter?: SpanExporter;
}

/** Starts tracing for this process, or returns undefined (off, and free) without an endpoint or exporter. */
export function startTracing(options: TracingOptions): Tracing | undefined {
  if (options.exporter === undefined && (options.endpoint === undefined || options.endpoint === '')) return undefined;
  const processor = options.exporter !== undefined
    ? new SimpleSpanProcessor(options.exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: `${(options.endpoint ?? '').replace(/\/+$/, '')}/v1/traces` }));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': options.version }),
    spanProcessors: [processor],
  });
  // Global: BullMQ's telemetry reads the global provider; the context manager carries spans across awaits.
  provider.register();
  const tracer = trace.getTracer('dialog-relay', options.version);
  return {
    tracer,
    bullmq: new BullMQOtel({ tracerName: 'bullmq', version: options.version }),
    inSpan: (name, kind, attributes, work) => tracer.startActiveSpan(name, { kind: KINDS[kind], attributes }, async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    }),
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
