import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeliveryPayload, VerificationFailure } from './delivery.types.js';
import { verificationClock, verifyDelivery } from './verify-delivery.js';
import { webhookKey } from './webhook-key.js';

export interface VerifiedDelivery {
  /** webhook-id = delivery_id: the same on every retry, deduplicate on it. */
  id: string;
  timestamp: number;
  payload: DeliveryPayload;
  rawBody: Buffer;
}

export interface ReceiverOptions {
  /** Your whsec_… webhook secret (or the request secret when the client has none). */
  secret: string;
  /** Called once the delivery is verified; a throw answers 500, so the service retries. */
  onDelivery: (delivery: VerifiedDelivery) => void | Promise<void>;
  /** Called with each refused delivery (e.g. to log it). */
  onRejected?: (failure: { reason: VerificationFailure | 'body_already_parsed' | 'payload_too_large'; message: string }) => void;
  toleranceS?: number;
  /** Largest body read (default 5 MiB). */
  maxBodyBytes?: number;
}

type Next = (error?: unknown) => void;
type RequestWithBody = IncomingMessage & { body?: unknown };

/**
 * A request handler that verifies each delivery over its RAW body and answers 204 (accepted),
 * 401 (refused, with the reason) or 500 (your onDelivery threw: the service retries). Works as a
 * `node:http` request listener and as Express middleware: mount it BEFORE `express.json()`, or
 * behind `express.raw({ type: 'application/json' })`; a body already parsed into an object cannot
 * be verified (re-serializing it changes the bytes) and is answered 500 with that explanation.
 * Throws at once for a secret that holds no key (TypeError) or a toleranceS that is not a number (RangeError).
 */
export function createDeliveryReceiver(options: ReceiverOptions): (req: IncomingMessage, res: ServerResponse, next?: Next) => void {
  // A secret with no key or a tolerance that is not a number fails here, at start-up, not on every delivery.
  webhookKey(options.secret);
  verificationClock(options.toleranceS === undefined ? {} : { toleranceS: options.toleranceS });
  const maxBytes = options.maxBodyBytes ?? 5 * 1024 * 1024;
  const refuse = (
    res: ServerResponse,
    status: number,
    reason: Parameters<NonNullable<ReceiverOptions['onRejected']>>[0]['reason'],
    message: string,
  ): void => {
    options.onRejected?.({ reason, message });
    answer(res, status, { error: reason, message });
  };
  const handle = async (req: RequestWithBody, res: ServerResponse, next: Next | undefined): Promise<void> => {
    const raw = await rawBodyOf(req, maxBytes);
    if (raw === 'parsed') {
      refuse(
        res,
        500,
        'body_already_parsed',
        'The body was parsed before verification; mount the receiver before express.json() or use express.raw().',
      );
      return;
    }
    if (raw === 'too_large') {
      refuse(res, 413, 'payload_too_large', `The body is over ${maxBytes} bytes.`);
      return;
    }
    const result = verifyDelivery(
      raw,
      req.headers,
      options.secret,
      options.toleranceS === undefined ? {} : { toleranceS: options.toleranceS },
    );
    if (!result.ok) {
      refuse(res, 401, result.reason, result.message);
      return;
    }
    try {
      await options.onDelivery({ id: result.id, timestamp: result.timestamp, payload: result.payload, rawBody: raw });
    } catch (error) {
      if (next) next(error);
      else answer(res, 500, { error: 'handler_failed', message: 'The delivery handler failed; the delivery will be retried.' });
      return;
    }
    res.statusCode = 204;
    res.end();
  };
  return (req, res, next) => {
    handle(req, res, next).catch((error: unknown) => {
      if (next) next(error);
      else if (!res.headersSent) answer(res, 500, { error: 'receiver_failed', message: 'The receiver failed.' });
    });
  };
}

function answer(res: ServerResponse, status: number, body: Record<string, string>): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

/** The raw body: a Buffer or string body-parser left (express.raw / express.text), else read from the stream. */
async function rawBodyOf(req: RequestWithBody, maxBytes: number): Promise<Buffer | 'parsed' | 'too_large'> {
  const body = req.body;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if ((body !== undefined && body !== null) || req.readableEnded) return 'parsed';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) return 'too_large';
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
