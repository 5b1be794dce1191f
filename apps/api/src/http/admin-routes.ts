import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { AdminGate } from './admin-auth.js';
import { loginPage, safeNext } from './admin-login-page.js';
import type { QueueDashboard } from './queue-dashboard.js';

/**
 * /admin: the login form (token for an HttpOnly SameSite=Strict cookie) and the queue dashboard,
 * read-only with ADMIN_TOKEN (only GET and HEAD reach it) and writable with ADMIN_WRITE_TOKEN.
 * Every other /admin path answers 401 without a token, never 404.
 */
export function adminRouter(gate: AdminGate, dashboard: QueueDashboard | undefined): Router {
  const router = express.Router();
  router.get('/login', (req: Request, res: Response) => {
    res
      .type('html')
      .send(
        loginPage({ next: typeof req.query['next'] === 'string' ? req.query['next'] : '', configured: gate.configured, failed: false }),
      );
  });
  router.post('/login', express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }), async (req: Request, res: Response) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    const access = await gate.loginWith(req, typeof form['token'] === 'string' ? form['token'] : '');
    if (access === 'none') {
      res
        .status(401)
        .type('html')
        .send(loginPage({ next: safeNext(form['next']), configured: gate.configured, failed: true }));
      return;
    }
    gate.startSession(req, res, access);
    res.redirect(303, safeNext(form['next']));
  });
  router.post('/logout', (_req: Request, res: Response) => {
    res.clearCookie('dr_admin', { path: '/admin' }).redirect(303, '/admin/login');
  });

  const readOnly: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (res.locals['adminAccess'] === 'write') {
      dashboard?.write(req, res, next);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      void gate.require('write')(req, res, next);
      return;
    }
    dashboard?.read(req, res, next);
  };
  router.use(gate.require('read'), (req: Request, res: Response, next: NextFunction) => {
    if (dashboard !== undefined && (req.path === '/queues' || req.path.startsWith('/queues/'))) readOnly(req, res, next);
    else next();
  });
  return router;
}
