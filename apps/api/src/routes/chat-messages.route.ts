import type { ChatService } from '@dialog-relay/chat';
import { AppError } from '@dialog-relay/contracts';
import type { Logger } from '@dialog-relay/logger';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { sendSuccess } from '../http/envelope.js';
import type { ApiMetrics } from '../http/metrics.js';
import { requestIdFrom } from '../http/request-id.js';

export const CHAT_MESSAGES_PATH = '/custom-im/chat-messages';

function requireJson(req: Request, _res: Response, next: NextFunction): void {
  if (req.is('application/json') === false || req.get('content-type') === undefined) {
    next(new AppError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.', {
      detail: `received Content-Type: ${req.get('content-type') ?? '(none)'}`,
    }));
    return;
  }
  next();
}

/** POST /custom-im/chat-messages: Content-Type, size limit and JSON parsing here; everything else in the chat service. */
export function chatMessagesRouter(deps: { chat: ChatService; logger: Logger; metrics: ApiMetrics; bodyLimitBytes: number }): Router {
  const router = express.Router();
  const parseJson = express.json({ limit: deps.bodyLimitBytes, strict: false, type: () => true });

  router.post(CHAT_MESSAGES_PATH, requireJson, parseJson, async (req: Request, res: Response) => {
    const requestId = requestIdFrom(res);
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppError('malformed_json', 'The body must be a JSON object.');
    }
    const logger = deps.logger.child({ request_id: requestId });
    const outcome = await deps.chat.handle(body as Record<string, unknown>, { requestId, logger });
    if (outcome.idempotentReplay) res.set('Idempotent-Replayed', 'true');
    res.locals['eventType'] = outcome.eventType;
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
