import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
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
  inSpan<T>(
    name: string,
    kind: 'server' | 'client' | 'internal',
    attributes: Record<string, string | number>,
    work: (span: Span) => Promise<T>,
  ): Promise<T>;
  /**
   * Runs `work` in a new active server span for an incoming request: a W3C `traceparent` (and
   * `tracestate`) among its headers makes the span a child of the caller's, in the caller's trace.
   */
  inIncomingSpan<T>(
    name: string,
    headers: IncomingHeaders,
    attributes: Record<string, string | number>,
    work: (span: Span) => Promise<T>,
  ): Promise<T>;
  /** Exports what is left and unregisters the global provider. */
  shutdown(): Promise<void>;
}

const KINDS = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL } as const;

/** An incoming request's headers, as Node gives them. */
export type IncomingHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** Reads `traceparent` / `tracestate` (the propagator provider.register() installs: W3C Trace Context and Baggage). */
const headerGetter = {
  keys: (carrier: IncomingHeaders): string[] => Object.keys(carrier),
  get: (carrier: IncomingHeaders, key: string): string | string[] | undefined => carrier[key.toLowerCase()],
};

export interface TracingOptions {
  /** The resource's service.name (OTEL_SERVICE_NAME, else the process's own). */
  serviceName: string;
  /** Further resource attributes (OTEL_RESOURCE_ATTRIBUTES); service.name and service.version above win. */
  attributes?: Readonly<Record<string, string>> | undefined;
  version: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://127.0.0.1:4318 (spans go to <endpoint>/v1/traces). */
  endpoint?: string | undefined;
  /** Replaces the OTLP exporter, spans exported one by one (tests: an InMemorySpanExporter). */
  exporter?: SpanExporter;
}

/** Starts tracing for this process, or returns undefined (off, and free) without an endpoint or exporter. */
export function startTracing(options: TracingOptions): Tracing | undefined {
  if (options.exporter === undefined && (options.endpoint === undefined || options.endpoint === '')) return undefined;
  const processor =
    options.exporter !== undefined
      ? new SimpleSpanProcessor(options.exporter)
      : new BatchSpanProcessor(new OTLPTraceExporter({ url: `${(options.endpoint ?? '').replace(/\/+$/, '')}/v1/traces` }));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ ...options.attributes, 'service.name': options.serviceName, 'service.version': options.version }),
    spanProcessors: [processor],
  });
  // Global: BullMQ's telemetry reads the global provider; the context manager carries spans across awaits.
  provider.register();
  const tracer = trace.getTracer('dialog-relay', options.version);
  const run = <T>(
    name: string,
    kind: SpanKind,
    attributes: Record<string, string | number>,
    parent: Context,
    work: (span: Span) => Promise<T>,
  ): Promise<T> =>
    tracer.startActiveSpan(name, { kind, attributes }, parent, async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
  return {
    tracer,
    bullmq: new BullMQOtel({ tracerName: 'bullmq', version: options.version }),
    inSpan: (name, kind, attributes, work) => run(name, KINDS[kind], attributes, context.active(), work),
    inIncomingSpan: (name, headers, attributes, work) =>
      run(name, SpanKind.SERVER, attributes, propagation.extract(ROOT_CONTEXT, headers, headerGetter), work),
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
