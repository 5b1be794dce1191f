import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

/** docs/service-rules.md §1: echo the caller's X-Request-Id when it is ≤ 128 safe characters, else make one. */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
}

export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const requestId = requestIdOf(req.get('x-request-id'));
  res.locals['requestId'] = requestId;
  res.set('X-Request-Id', requestId);
  next();
}

export function requestIdFrom(res: Response): string {
  const id: unknown = res.locals['requestId'];
  return typeof id === 'string' ? id : randomUUID();
}
