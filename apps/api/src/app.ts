import type { AuthThrottle, ChatService } from '@dialog-relay/chat';
import { AppError } from '@dialog-relay/contracts';
import type { Logger } from '@dialog-relay/logger';
import type { Redis } from '@dialog-relay/redis';
import type { Tracing } from '@dialog-relay/tracing';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { createAdminGate } from './http/admin-auth.js';
import { adminRouter } from './http/admin-routes.js';
import { apiDocsRouter } from './http/api-docs.js';
import { sendError } from './http/envelope.js';
import { toAppError } from './http/error-mapping.js';
import type { ApiMetrics } from './http/metrics.js';
import type { QueueDashboard } from './http/queue-dashboard.js';
import { assignRequestId, requestIdFrom } from './http/request-id.js';
import { mountChatMessages } from './routes/chat-messages.route.js';
import { healthRouter } from './routes/health.route.js';

export interface AppDeps {
  chat: ChatService;
  redis: Redis;
  logger: Logger;
  metrics: ApiMetrics;
  bodyLimitBytes: number;
  /** ADMIN_TOKEN: metrics and the dashboard read-only. */
  adminToken: string | undefined;
  /** ADMIN_WRITE_TOKEN: also the dashboard's actions. */
  adminWriteToken?: string | undefined;
  /** Counts wrong admin credentials per source address (429 over the limit); none: not counted. */
  adminThrottle?: AuthThrottle;
  /** Express's `trust proxy` (TRUST_PROXY): which proxies' X-Forwarded-For names the caller. */
  trustProxy?: boolean | number | string | undefined;
  isDraining: () => boolean;
  /** The queue dashboard, mounted at /admin/queues behind the admin tokens. */
  dashboard?: QueueDashboard;
  /** The OpenAPI document's JSON, served at /openapi.json and rendered at /docs (asked for each time it is served). */
  openApi?: () => string;
  /** When set (OTEL_EXPORTER_OTLP_ENDPOINT), every request runs in a server span. */
  tracing?: Tracing | undefined;
}

const KNOWN_ROUTES = new Set(['/custom-im/chat-messages', '/healthz', '/readyz', '/metrics', '/openapi.json', '/docs']);
/** A bounded metrics label: unknown paths must not create new series. */
const routeLabel = (path: string): string =>
  KNOWN_ROUTES.has(path) ? path : path.startsWith('/admin/') ? '/admin' : path.startsWith('/docs/') ? '/docs' : 'other';

/** The Express application, without listening: tests and main.ts both use it. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy);
  const observe = (req: Request, res: Response): void => {
    const route = routeLabel(req.path);
    const started = performance.now();
    res.on('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      // docs/design/decisions.md "Stop latency": an idempotent replay of a stop stops nothing.
      if (res.locals['command'] === 'stop_auto_reply' && res.statusCode === 200 && res.getHeader('Idempotent-Replayed') === undefined)
        deps.metrics.stopLatency.observe(seconds);
      const eventType = typeof res.locals['eventType'] === 'string' ? res.locals['eventType'] : 'none';
      deps.metrics.observeRequest(route, res.statusCode, eventType, seconds);
      // The line's fields are built only when info is on (docs/design/performance.md: nothing per request for a level that is off).
      if (!deps.logger.enabled('info')) return;
      deps.logger.info('request', {
        request_id: requestIdFrom(res),
        method: req.method,
        path: req.path,
        status: res.statusCode,
        client: res.locals['client'],
        event_type: res.locals['eventType'],
        conversation_id: res.locals['conversationId'],
      });
    });
  };
  const tracing = deps.tracing;
  if (tracing === undefined) {
    // One middleware for the request id and the request's metrics and line: every layer costs the router a match and a call per request.
    app.use((req: Request, res: Response, next: NextFunction) => {
      assignRequestId(req, res);
      observe(req, res);
      next();
    });
  } else {
    app.use((req: Request, res: Response, next: NextFunction) => {
      assignRequestId(req, res);
      next();
    });
    // The request's span is active for everything the request does, the queued job's add included;
    // a caller's traceparent header makes it part of the caller's trace.
    app.use((req: Request, res: Response, next: NextFunction) => {
      void tracing.inIncomingSpan(
        `${req.method} ${routeLabel(req.path)}`,
        req.headers,
        { 'http.request.method': req.method, 'http.route': routeLabel(req.path) },
        (span) =>
          new Promise<void>((resolve) => {
            res.on('finish', () => span.setAttribute('http.response.status_code', res.statusCode));
            res.on('close', () => resolve());
            next();
          }),
      );
    });
    app.use((req: Request, res: Response, next: NextFunction) => {
      observe(req, res);
      next();
    });
  }

  mountChatMessages(app, { chat: deps.chat, logger: deps.logger, metrics: deps.metrics, bodyLimitBytes: deps.bodyLimitBytes });
  // A sub-router answers OPTIONS itself (200 text/plain naming its methods); no operation here takes
  // OPTIONS, so it is 404 in the envelope like any other method a path does not take (docs/service-rules.md §3).
  app.use(['/healthz', '/readyz', '/openapi.json', '/docs'], (req: Request, _res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') throw new AppError('not_found', `No route for ${req.method} ${req.originalUrl.split('?', 1)[0] ?? ''}.`);
    next();
  });
  app.use(healthRouter({ redis: deps.redis, isDraining: deps.isDraining }));
  if (deps.openApi !== undefined) app.use(apiDocsRouter(deps.openApi));
  const gate = createAdminGate({ readToken: deps.adminToken, writeToken: deps.adminWriteToken }, deps.adminThrottle);
  app.get('/metrics', gate.require('read'), async (_req: Request, res: Response) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  app.use('/admin', adminRouter(gate, deps.dashboard));

  app.use((req: Request) => {
    throw new AppError('not_found', `No route for ${req.method} ${req.path}.`);
  });
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const { error, unexpected } = toAppError(err, { bodyBytes: deps.bodyLimitBytes });
    if (unexpected) deps.logger.error('unexpected error', { request_id: requestIdFrom(res), error: err });
    else if (error.code === 'service_unavailable') deps.logger.warn('redis unavailable', { request_id: requestIdFrom(res), error: err });
    deps.metrics.errors.inc({ route: routeLabel(req.path), error: error.code });
    sendError(res, error, requestIdFrom(res));
  });
  return app;
}
