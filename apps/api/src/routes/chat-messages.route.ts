import type { ChatService } from '@dialog-relay/chat';
import { AppError, checkRawBodyShape, jsonParseFailureDetail, leadingErrorCode } from '@dialog-relay/contracts';
import type { Logger } from '@dialog-relay/logger';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { sendSuccess } from '../http/envelope.js';
import type { ApiMetrics } from '../http/metrics.js';
import { requestIdFrom } from '../http/request-id.js';

export const CHAT_MESSAGES_PATH = '/custom-im/chat-messages';

/** The header decides, with or without a body (req.is() answers null for a request without one): anything but JSON is 415. */
function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const header = req.headers['content-type'];
  if (header === 'application/json') {
    next();
    return;
  }
  const mediaType = header?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    next(
      new AppError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.', {
        detail: `received Content-Type: ${req.get('content-type') ?? '(none)'}`,
      }),
    );
    return;
  }
  next();
}

/** The charset parameter of the Content-Type (lower case), or utf-8 when it names none. */
function charsetOf(req: Request): string {
  if (req.headers['content-type'] === 'application/json') return 'utf-8';
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(req.get('content-type') ?? '');
  return (match?.[1] ?? 'utf-8').toLowerCase();
}

/**
 * One pass over the body (docs/design/performance.md): the raw bytes (read, inflated and size-limited by
 * express.raw) are held to the shape limits (docs/service-rules.md §16: a body of too many values or
 * nested too deep is refused after one read of its bytes, never parsed), then parsed once; the
 * validator does not walk the parsed body again. JSON is read as UTF-8 only (RFC 8259 §8.1).
 */
function parseBody(req: Request): Record<string, unknown> {
  const charset = charsetOf(req);
  if (charset !== 'utf-8' && charset !== 'utf8') {
    throw new AppError('unsupported_media_type', 'Send UTF-8 JSON (Content-Type: application/json).', {
      detail: `received charset ${charset}`,
    });
  }
  const raw: unknown = req.body;
  const bytes = Buffer.isBuffer(raw) ? raw : EMPTY;
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  // An empty body (or a lone byte order mark) is text that is not JSON (docs/service-rules.md §3).
  if (bytes.length === bom) throw new AppError('malformed_json', 'The body is empty; send a JSON object.');
  const shape = checkRawBodyShape(bytes);
  if (shape) throw new AppError(leadingErrorCode([shape]), shape.message, { errors: [shape] });
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8', bom));
  } catch (error) {
    throw new AppError('malformed_json', 'The body is not valid JSON.', { detail: jsonParseFailureDetail((error as Error).message) });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('malformed_json', 'The body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

const EMPTY = Buffer.alloc(0);

/**
 * POST /custom-im/chat-messages: Content-Type, size limit and the one pass over the body here;
 * everything else in the chat service. Mounted on the application's own router, not through a
 * sub-router, which every request would enter and leave (a second dispatch: its prefix trimmed, its
 * parameters processed, its `next` and restore closures made; docs/design/performance.md).
 */
export function mountChatMessages(
  app: Express,
  deps: { chat: ChatService; logger: Logger; metrics: ApiMetrics; bodyLimitBytes: number },
): void {
  const readBody = express.raw({ limit: deps.bodyLimitBytes, type: () => true });

  app.post(CHAT_MESSAGES_PATH, requireJson, readBody, async (req: Request, res: Response) => {
    const requestId = requestIdFrom(res);
    const body = parseBody(req);
    const logger = deps.logger.child({ request_id: requestId });
    const outcome = await deps.chat.handle(body, {
      requestId,
      logger,
      sourceAddress: () => req.ip ?? req.socket.remoteAddress,
      shapeChecked: true,
    });
    if (outcome.idempotentReplay) res.set('Idempotent-Replayed', 'true');
    res.locals['eventType'] = outcome.eventType;
    res.locals['command'] = outcome.command;
    res.locals['conversationId'] = outcome.conversationId;
    res.locals['client'] = outcome.client;
    sendSuccess(res, outcome.status, outcome.requestId, outcome.data);
  });

  app.all(CHAT_MESSAGES_PATH, (_req: Request, res: Response) => {
    res.set('Allow', 'POST');
    throw new AppError('method_not_allowed', `Use POST ${CHAT_MESSAGES_PATH}.`);
  });
}
