import type { WaitingProgress } from '@dialog-relay/queue';
import type { Queue } from 'bullmq';
import type { Request, RequestHandler, Response } from 'express';

/** The queue dashboard (bull-board) twice: read-only for ADMIN_TOKEN, with its actions for ADMIN_WRITE_TOKEN. */
export interface QueueDashboard {
  read: RequestHandler;
  write: RequestHandler;
}

// Only our own origin: an admin's browser never contacts anything else from the dashboard.
// bull-board's pages use inline styles and a <base href>, hence 'unsafe-inline' styles and base-uri 'self'.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** bull-board's page links a stylesheet on fonts.googleapis.com: left out (the CSP would block it anyway), the page uses a local font. */
const OUTSIDE_STYLESHEET = /<link\b[^>]*\bhref="https?:\/\/[^"]*"[^>]*>/gi;

/** Every shard's queue has the same BullMQ name (docs/design/scaling.md); bull-board keys queues by name, so each is shown as "shard-<k>:<name>". */
export const shardQueueLabel = (shard: number): string => `shard-${String(shard).padStart(2, '0')}:`;

/** The job payload members the board shows: ids only (a payload never carries customer text, and the board would not show it if one did). */
const SHOWN_DATA = ['conversationId', 'generation', 'deliveryId'] as const;
/** Bound on the last error shown in a job's name. */
const ERROR_CHARS = 200;

/** A job's payload as the board shows it: the id members only. */
export function shownJobData(data: unknown): Record<string, unknown> {
  if (typeof data !== 'object' || data === null) return {};
  const record = data as Record<string, unknown>;
  return Object.fromEntries(SHOWN_DATA.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));
}

/** Why a job waits after a failed step its handler retries itself (the dispatcher's progress), or ''. */
const waitingReason = (progress: unknown): string =>
  typeof progress === 'object' && progress !== null && typeof (progress as Partial<WaitingProgress>).last_error === 'string'
    ? (progress as WaitingProgress).last_error
    : '';

const bounded = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > ERROR_CHARS ? `${line.slice(0, ERROR_CHARS)}…` : line;
};

/**
 * A job's name on the board: what it works on (conversation and generation, or delivery), why it
 * waits when a delivery attempt failed (the worker retries those itself: no run failed), and its last
 * thrown error, so a job retried "5 started" says which conversation it is and what went wrong.
 */
export function shownJobName(job: { name?: string; data?: unknown; failedReason?: string; progress?: unknown }): string {
  const data = shownJobData(job.data);
  const parts = [job.name ?? ''];
  if (typeof data['conversationId'] === 'string') parts.push(`conversation ${data['conversationId']}`);
  if (typeof data['generation'] === 'number') parts.push(`generation ${data['generation']}`);
  if (typeof data['deliveryId'] === 'string') parts.push(`delivery ${data['deliveryId']}`);
  const waiting = bounded(waitingReason(job.progress));
  if (waiting !== '') parts.push(`retrying after: ${waiting}`);
  const error = bounded(job.failedReason ?? '');
  if (error !== '') parts.push(`last error: ${error}`);
  return parts.join(' · ');
}

/** The board's HTML page without outside stylesheets (JSON and static files are left alone). */
function withoutOutsideStylesheets(req: Request, res: Response): void {
  if (req.url.startsWith('/api/') || req.url.startsWith('/static/')) return;
  const send = res.send.bind(res);
  res.send = ((body: unknown) =>
    send(
      typeof body === 'string' && res.get('Content-Type') === undefined ? body.replace(OUTSIDE_STYLESHEET, '') : body,
    )) as Response['send'];
}

/**
 * bull-board is imported when an admin first opens the dashboard: it weighs about 18 MiB of RSS that
 * an API whose dashboard is never opened need not carry (docs/design/performance.md, memory).
 */
async function board(queues: Queue[], basePath: string, readOnlyMode: boolean): Promise<RequestHandler> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const adapter = new ExpressAdapter();
  adapter.setBasePath(basePath);
  const adapters = queues.map((queue, shard) => {
    const queueAdapter = new BullMQAdapter(queue, { readOnlyMode, prefix: shardQueueLabel(shard) });
    queueAdapter.setFormatter('name', (job: { name?: string; data?: unknown; failedReason?: string; progress?: unknown }) =>
      shownJobName(job),
    );
    queueAdapter.setFormatter('data', shownJobData);
    return queueAdapter;
  });
  createBullBoard({ queues: adapters, serverAdapter: adapter });
  const router = adapter.getRouter() as RequestHandler;
  // Mounted under /admin: the board itself expects paths below /queues.
  return (req, res, next) => {
    req.url = req.url.slice('/queues'.length) || '/';
    res.set('Content-Security-Policy', CSP);
    withoutOutsideStylesheets(req, res);
    router(req, res, next);
  };
}

/** A handler that builds its board on first use (a failed build is tried again on the next request). */
function onFirstUse(build: () => Promise<RequestHandler>): RequestHandler {
  let built: Promise<RequestHandler> | undefined;
  return (req, res, next) => {
    const handler = (built ??= build().catch((error: unknown) => {
      built = undefined;
      throw error;
    }));
    handler.then((handle) => handle(req, res, next)).catch(next);
  };
}

export function queueDashboard(queues: Queue[], basePath: string): QueueDashboard {
  return { read: onFirstUse(() => board(queues, basePath, true)), write: onFirstUse(() => board(queues, basePath, false)) };
}
