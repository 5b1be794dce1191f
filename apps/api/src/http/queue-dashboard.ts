import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Request, RequestHandler, Response } from 'express';

/** The queue dashboard (bull-board) twice: read-only for ADMIN_TOKEN, with its actions for ADMIN_WRITE_TOKEN. */
export interface QueueDashboard {
  read: RequestHandler;
  write: RequestHandler;
}

// Only our own origin: an admin's browser never contacts anything else from the dashboard.
// bull-board's pages use inline styles and a <base href>, hence 'unsafe-inline' styles and base-uri 'self'.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** bull-board's page links a stylesheet on fonts.googleapis.com: left out (the CSP would block it anyway), the page uses a local font. */
const OUTSIDE_STYLESHEET = /<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>/gi;

/** Every shard's queue has the same BullMQ name (docs/scaling.md); bull-board keys queues by name, so each is shown as "shard-<k>:<name>". */
export const shardQueueLabel = (shard: number): string => `shard-${String(shard).padStart(2, '0')}:`;

/** The board's HTML page without outside stylesheets (JSON and static files are left alone). */
function withoutOutsideStylesheets(req: Request, res: Response): void {
  if (req.url.startsWith('/api/') || req.url.startsWith('/static/')) return;
  const send = res.send.bind(res);
  res.send = ((body: unknown) => send(typeof body === 'string' && res.get('Content-Type') === undefined ? body.replace(OUTSIDE_STYLESHEET, '') : body)) as Response['send'];
}

function board(queues: Queue[], basePath: string, readOnlyMode: boolean): RequestHandler {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(basePath);
  createBullBoard({ queues: queues.map((queue, shard) => new BullMQAdapter(queue, { readOnlyMode, prefix: shardQueueLabel(shard) })), serverAdapter: adapter });
  const router = adapter.getRouter() as RequestHandler;
  // Mounted under /admin: the board itself expects paths below /queues.
  return (req, res, next) => {
    req.url = req.url.slice('/queues'.length) || '/';
    res.set('Content-Security-Policy', CSP);
    withoutOutsideStylesheets(req, res);
    router(req, res, next);
  };
}

export function queueDashboard(queues: Queue[], basePath: string): QueueDashboard {
  return { read: board(queues, basePath, true), write: board(queues, basePath, false) };
}
