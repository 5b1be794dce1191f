import { AppError } from '@dialog-relay/contracts';
import type { NextFunction, Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';

/** Guards /metrics and /admin/*: `Authorization: Bearer <ADMIN_TOKEN>`. Without ADMIN_TOKEN they are closed. */
export function adminAuth(adminToken: string | undefined) {
  const expected = adminToken === undefined ? undefined : Buffer.from(`Bearer ${adminToken}`);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const given = Buffer.from(req.get('authorization') ?? '');
    if (expected === undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      next(new AppError('unauthorized', expected === undefined ? 'Set ADMIN_TOKEN to open the admin endpoints.' : 'Admin token missing or wrong.'));
      return;
    }
    next();
  };
}
