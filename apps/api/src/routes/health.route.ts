import type { Redis } from '@dialog-relay/redis';
import express, { type Request, type Response, type Router } from 'express';
import { sendSuccess } from '../http/envelope.js';
import { requestIdFrom } from '../http/request-id.js';
import { AppError } from '@dialog-relay/contracts';

/** GET /healthz: the process is alive. GET /readyz: Redis answers (else 503), and we are not draining. */
export function healthRouter(deps: { redis: Redis; isDraining: () => boolean }): Router {
  const router = express.Router();
  router.get('/healthz', (_req: Request, res: Response) => {
    sendSuccess(res, 200, requestIdFrom(res), { status: 'alive' });
  });
  router.get('/readyz', async (_req: Request, res: Response) => {
    if (deps.isDraining()) throw new AppError('service_unavailable', 'Shutting down.', { retryAfterS: 1 });
    await deps.redis.ping();
    sendSuccess(res, 200, requestIdFrom(res), { status: 'ready', redis: 'ok' });
  });
  return router;
}
