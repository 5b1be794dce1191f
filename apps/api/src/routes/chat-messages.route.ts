import type { ChatService } from '@dialog-relay/chat';
import { AppError, checkRawBodyShape, leadingErrorCode } from '@dialog-relay/contracts';
import type { Logger } from '@dialog-relay/logger';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { sendSuccess } from '../http/envelope.js';
import type { ApiMetrics } from '../http/metrics.js';
import { requestIdFrom } from '../http/request-id.js';

export const CHAT_MESSAGES_PATH = '/custom-im/chat-messages';

/** The header decides, with or without a body (req.is() answers null for a request without one): anything but JSON is 415. */
function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const mediaType = req.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    next(new AppError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.', {
      detail: `received Content-Type: ${req.get('content-type') ?? '(none)'}`,
    }));
    return;
  }
  next();
}

/**
 * Runs on the raw bytes before JSON.parse (docs/service-rules.md §16): a body of too many values or nested too
 * deep is refused after one pass over its bytes, never parsed. JSON is read as UTF-8 only (RFC 8259
 * §8.1), so that pass reads the bytes the parser will.
 */
function checkBeforeParsing(_req: unknown, _res: unknown, raw: Buffer, encoding: string): void {
  if (encoding !== 'utf-8') {
    throw new AppError('unsupported_media_type', 'Send UTF-8 JSON (Content-Type: application/json).', { detail: `received charset ${encoding}` });
  }
  // The JSON parser would read an empty body (or a lone byte order mark) as {}: it is text that is not JSON (docs/service-rules.md §3).
  if (raw.length === 0 || (raw.length === 3 && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf)) {
    throw new AppError('malformed_json', 'The body is empty; send a JSON object.');
  }
  const shape = checkRawBodyShape(raw);
  if (shape) throw new AppError(leadingErrorCode([shape]), shape.message, { errors: [shape] });
}

/** POST /custom-im/chat-messages: Content-Type, size limit and JSON parsing here; everything else in the chat service. */
export function chatMessagesRouter(deps: { chat: ChatService; logger: Logger; metrics: ApiMetrics; bodyLimitBytes: number }): Router {
  const router = express.Router();
  const parseJson = express.json({ limit: deps.bodyLimitBytes, strict: false, type: () => true, verify: checkBeforeParsing });

  router.post(CHAT_MESSAGES_PATH, requireJson, parseJson, async (req: Request, res: Response) => {
    const requestId = requestIdFrom(res);
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppError('malformed_json', 'The body must be a JSON object.');
    }
    const logger = deps.logger.child({ request_id: requestId });
    const outcome = await deps.chat.handle(body as Record<string, unknown>, { requestId, logger, sourceAddress: req.ip ?? req.socket.remoteAddress });
    if (outcome.idempotentReplay) res.set('Idempotent-Replayed', 'true');
    res.locals['eventType'] = outcome.eventType;
    res.locals['command'] = outcome.command;
    res.locals['conversationId'] = outcome.conversationId;
    res.locals['client'] = outcome.client;
    sendSuccess(res, outcome.status, outcome.requestId, outcome.data);
  });

  router.all(CHAT_MESSAGES_PATH, (_req: Request, res: Response) => {
    res.set('Allow', 'POST');
    throw new AppError('method_not_allowed', `Use POST ${CHAT_MESSAGES_PATH}.`);
  });
  return router;
}
