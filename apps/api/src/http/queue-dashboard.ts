import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';

/** The queue dashboard (bull-board), mounted by the app under /admin behind ADMIN_TOKEN. */
export function queueDashboard(queues: Queue[], basePath: string): RequestHandler {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(basePath);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: false })), serverAdapter: adapter });
  const router = adapter.getRouter() as RequestHandler;
  return (req, res, next) => {
    if (!req.path.startsWith('/queues')) {
      next();
      return;
    }
    req.url = req.url.slice('/queues'.length) || '/';
    router(req, res, next);
  };
}
