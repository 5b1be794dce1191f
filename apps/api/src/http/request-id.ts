import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

/** docs/service-rules.md §1: echo the caller's X-Request-Id when it is ≤ 128 safe characters, else make one. */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Sets the request's id (res.locals.requestId) and its X-Request-Id answer header. */
export function assignRequestId(req: Request, res: Response): void {
  const header = req.headers['x-request-id'];
  const requestId = requestIdOf(typeof header === 'string' ? header : undefined);
  res.locals['requestId'] = requestId;
  res.setHeader('X-Request-Id', requestId);
}

export function requestIdFrom(res: Response): string {
  const id: unknown = res.locals['requestId'];
  return typeof id === 'string' ? id : randomUUID();
}
