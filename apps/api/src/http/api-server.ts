import { AppError, type ErrorCode } from '@dialog-relay/contracts';
import type { Express } from 'express';
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorEnvelopeJson } from './envelope.js';

export interface ApiServerOptions {
  /** Time to receive the request headers. */
  headersTimeoutMs: number;
  /** Time to receive the whole request. */
  requestTimeoutMs: number;
  /** A connection without progress (idle between requests, or a client not reading its answer) is closed. */
  idleTimeoutMs: number;
}

/** Header bytes one request may carry (Node's default, stated here so it is a documented limit). */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * Requests one keep-alive connection may carry: the answer to the last one says `Connection: close`
 * and the server closes the connection after it. Not Node's `maxRequestsPerSocket`, which keeps the
 * connection open and answers any later request with a bare 503 outside the envelope (a client that
 * ignores `Connection: close`, such as a load generator, then measures 503s).
 */
const MAX_REQUESTS_PER_SOCKET = 1000;

/**
 * The API's HTTP server (docs/service-rules.md §16): time-outs for headers, the whole request and idle or
 * non-reading connections, and Node's own parser errors answered with the JSON envelope.
 * Memory per connection stays bounded: headers by MAX_HEADER_BYTES, the body by the body limit,
 * answers are small, and a client that stops reading is dropped once the idle time-out passes.
 */
export function createApiServer(app: Express, options: ApiServerOptions): Server {
  const connections = new WeakMap<Socket, Connection>();
  const server = createServer(
    {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      keepAliveTimeout: options.idleTimeoutMs,
      // How often Node checks the headers and request time-outs (its default is 30 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(options.headersTimeoutMs / 4))),
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node's own refusal of a Host-less HTTP/1.1 request is an empty 400; it is answered below instead.
      requireHostHeader: false,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      let connection = connections.get(req.socket);
      if (connection === undefined) {
        connection = { served: 0, working: 0 };
        connections.set(req.socket, connection);
      }
      connection.served += 1;
      if (connection.served >= MAX_REQUESTS_PER_SOCKET) res.shouldKeepAlive = false;
      countWorking(connection, res);
      if (req.httpVersion === '1.1' && req.headers.host === undefined) {
        answerWithoutApp(res, new AppError('bad_request', 'An HTTP/1.1 request needs a Host header.'));
        return;
      }
      app(req, res);
    },
  );
  closeIdleSockets(server, connections, options.idleTimeoutMs);
  server.on('clientError', answerClientError);
  // An Expect other than 100-continue would get Node's empty 417; it is served like any request (RFC 9110 §10.1.1 allows it).
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  // Not a proxy: CONNECT would otherwise drop the connection without an answer.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    endWithEnvelope(socket, new AppError('bad_request', 'CONNECT is not served: this is not a proxy.'));
  });
  return server;
}

/** What the server keeps of a connection, in one object (one look-up a request). */
interface Connection {
  /** Requests it carried (MAX_REQUESTS_PER_SOCKET). */
  served: number;
  /** Requests a handler is still working on (closeIdleSockets). */
  working: number;
}

/**
 * Counts the request as worked on until its answer is written to the socket (prefinish: a client that
 * does not read never lets 'finish' come) or the request is closed, whichever is first. One listener
 * function for both, kept with `on`: `once` wraps each listener in a bound function and a state object.
 */
function countWorking(connection: Connection, res: ServerResponse): void {
  connection.working += 1;
  let done = false;
  const finished = (): void => {
    if (done) return;
    done = true;
    connection.working = Math.max(0, connection.working - 1);
  };
  res.on('prefinish', finished);
  res.on('close', finished);
}

/** An error envelope written before the app runs (the request never reaches Express), closing the connection. */
function answerWithoutApp(res: ServerResponse, error: AppError): void {
  const requestId = randomUUID();
  const body = errorEnvelopeJson(error, requestId);
  res.shouldKeepAlive = false;
  res.writeHead(error.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': requestId,
  });
  res.end(body);
}

/**
 * A socket without progress for idleTimeoutMs is closed, unless a handler is still working on
 * one of its requests (a sync reply may wait for the engine): then the watch starts again.
 * Output waiting in the socket means the client does not read: it is closed.
 */
function closeIdleSockets(server: Server, connections: WeakMap<Socket, Connection>, idleTimeoutMs: number): void {
  server.timeout = idleTimeoutMs;
  server.on('timeout', (socket: Socket) => {
    const working = (connections.get(socket)?.working ?? 0) > 0 && socket.writableLength === 0;
    if (working) socket.setTimeout(idleTimeoutMs);
    else socket.destroy();
  });
}

const PARSER_ERRORS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ['headers_too_large', 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive in time.'],
};

/** Node's parser errors (bad framing, huge headers, time-outs) answered with the envelope where the socket allows. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = Reflect.get(socket, '_httpMessage') as ServerResponse | null | undefined;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const [code, message] = PARSER_ERRORS[error.code ?? ''] ?? ['bad_request', 'The request is not valid HTTP/1.1.'];
  endWithEnvelope(socket, new AppError(code, message, { detail: error.code }));
}

/** Writes a whole HTTP answer carrying the error envelope on a raw socket, and closes it. */
function endWithEnvelope(socket: Duplex, error: AppError): void {
  const requestId = randomUUID();
  const body = errorEnvelopeJson(error, requestId);
  socket.end(
    [
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
