import type { ChatService } from '@dialog-relay/chat';
import { AppError } from '@dialog-relay/contracts';
import type { Logger } from '@dialog-relay/logger';
import type { Redis } from '@dialog-relay/redis';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { adminAuth } from './http/admin-auth.js';
import { sendError } from './http/envelope.js';
import { toAppError } from './http/error-mapping.js';
import type { ApiMetrics } from './http/metrics.js';
import { requestIdFrom, requestIdMiddleware } from './http/request-id.js';
import { chatMessagesRouter } from './routes/chat-messages.route.js';
import { healthRouter } from './routes/health.route.js';

export interface AppDeps {
  chat: ChatService;
  redis: Redis;
  logger: Logger;
  metrics: ApiMetrics;
  bodyLimitBytes: number;
  adminToken: string | undefined;
  isDraining: () => boolean;
  /** Extra admin routes mounted under /admin behind the admin token (the queue dashboard). */
  adminRoutes?: RequestHandler;
}

const KNOWN_ROUTES = new Set(['/custom-im/chat-messages', '/healthz', '/readyz', '/metrics']);
/** A bounded metrics label: unknown paths must not create new series. */
const routeLabel = (path: string): string => (KNOWN_ROUTES.has(path) ? path : path.startsWith('/admin/') ? '/admin' : 'other');

/** The Express application, without listening: tests and main.ts both use it. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestIdMiddleware);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const route = routeLabel(req.path);
    const stop = deps.metrics.duration.startTimer({ route });
    res.on('finish', () => {
      stop();
      const eventType = typeof res.locals['eventType'] === 'string' ? res.locals['eventType'] : 'none';
      deps.metrics.requests.inc({ route, status: String(res.statusCode), event_type: eventType });
      deps.logger.info('request', {
        request_id: requestIdFrom(res), method: req.method, path: req.path, status: res.statusCode,
        client: res.locals['client'], event_type: res.locals['eventType'], conversation_id: res.locals['conversationId'],
      });
    });
    next();
  });

  app.use(chatMessagesRouter({ chat: deps.chat, logger: deps.logger, metrics: deps.metrics, bodyLimitBytes: deps.bodyLimitBytes }));
  app.use(healthRouter({ redis: deps.redis, isDraining: deps.isDraining }));
  app.get('/metrics', adminAuth(deps.adminToken), async (_req: Request, res: Response) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  if (deps.adminRoutes) app.use('/admin', adminAuth(deps.adminToken), deps.adminRoutes);

  app.use((req: Request) => {
    throw new AppError('not_found', `No route for ${req.method} ${req.path}.`);
  });
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const { error, unexpected } = toAppError(err, { bodyBytes: deps.bodyLimitBytes });
    if (unexpected) deps.logger.error('unexpected error', { request_id: requestIdFrom(res), error: err });
    else if (error.code === 'service_unavailable') deps.logger.warn('redis unavailable', { request_id: requestIdFrom(res), error: err });
    sendError(res, error, requestIdFrom(res));
  });
  return app;
}
