import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { whenConnected } from './send-when-connected.js';
import type { CappedAnswer } from './capped-answer.js';

/** The error of an attempt that ran past its time-out (describeAttemptError reads its name). */
export class PostTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`Timeout awaiting the answer for ${ms}ms`);
  }
}

export interface PostRequest {
  url: URL;
  body: string;
  headers: Record<string, string>;
  agents: { http: http.Agent; https: https.Agent };
  lookup: LookupFunction;
  /** From the start of the attempt to the end of the answer's body (got's `timeout.request`). */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  capBytes: number;
  /** Held back until the connection is open and this agrees; false ends the attempt unsent (`heldBack` is called). */
  beforeSend?: (() => Promise<boolean>) | undefined;
  heldBack: () => void;
}

/**
 * One POST with node's HTTP client, the answer's body read up to `capBytes` (docs/design/performance.md:
 * got cost about 150 µs of CPU more per attempt than this, a sixth of a delivered reply's CPU). No
 * redirect is followed and nothing is retried (the reply protocol retries). Rejects when no answer
 * arrived (network error, time-out, abort, refused address); an answer whose body could not be read
 * to the end still counts (readError). A 101 answer is an answer: the upgraded socket is closed.
 */
export function post(request: PostRequest): Promise<CappedAnswer> {
  return new Promise((resolve, reject) => {
    const client = request.url.protocol === 'https:' ? https : http;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (readError: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if (response === undefined) {
        reject(readError instanceof Error ? readError : new Error('the request ended without a response'));
        return;
      }
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks, size), readError });
    };
    const fail = (error: Error): void => {
      finish(error);
      if (response !== undefined) response.destroy();
      sent.destroy();
    };
    if (request.signal?.aborted === true) {
      reject(abortError(request.signal));
      return;
    }
    const sent: ClientRequest = client.request(request.url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      agent: request.url.protocol === 'https:' ? request.agents.https : request.agents.http,
      lookup: request.lookup,
    });
    const timer = setTimeout(() => fail(new PostTimeoutError(request.timeoutMs)), request.timeoutMs);
    const onAbort = (): void => fail(abortError(request.signal));
    request.signal?.addEventListener('abort', onAbort, { once: true });
    sent.once('error', (error) => finish(error));
    sent.once('response', (answer: IncomingMessage) => {
      response = answer;
      answer.on('data', (chunk: Buffer) => {
        const taken = chunk.subarray(0, Math.max(0, request.capBytes - size));
        if (taken.length > 0) {
          chunks.push(taken);
          size += taken.length;
        }
        if (size >= request.capBytes) {
          finish(null);
          answer.destroy();
        }
      });
      answer.once('end', () => finish(null));
      answer.once('error', (error) => finish(error));
      answer.once('close', () => finish(new Error('the answer was cut off')));
    });
    sent.once('upgrade', (answer: IncomingMessage, socket: Socket) => {
      socket.destroy();
      response = answer;
      finish(null);
    });
    const beforeSend = request.beforeSend;
    if (beforeSend === undefined) {
      sent.end(request.body);
      return;
    }
    // Node sends the headers with the first body bytes: until beforeSend agrees the receiver sees at most a connection.
    sent.once('socket', (socket: Socket) => {
      whenConnected(socket)
        .then(() => beforeSend())
        .then(
          (go) => {
            if (settled) return;
            if (go) {
              sent.end(request.body);
              return;
            }
            request.heldBack();
            fail(new Error('not sent: held back before the request was written'));
          },
          (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
        );
    });
  });
}

function abortError(signal: AbortSignal | undefined): Error {
  const error = new Error('This operation was aborted', { cause: signal?.reason });
  error.name = 'AbortError';
  return Object.assign(error, { code: 'ERR_ABORTED' });
}
