import http, { type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { whenConnected } from './when-connected.js';

/** An HTTP answer whose body was read up to a byte cap. */
export interface CappedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most the cap's worth of the body. */
  body: Buffer;
  /** Set when the body could not be read to the end (the status still counts); null otherwise. */
  readError: unknown;
}

export interface Post {
  url: URL;
  body: string;
  headers: OutgoingHttpHeaders;
  agents: { http: http.Agent; https: https.Agent };
  lookup: LookupFunction;
  /** For the whole exchange: connection, request, answer and its body. */
  timeoutMs: number;
  capBytes: number;
  signal?: AbortSignal | undefined;
  /** Asked once the connection is open, before a byte is written; false ends the post unsent (HeldBackError). */
  beforeSend?: (() => Promise<boolean>) | undefined;
}

/** The error of a post that beforeSend held back: no byte of the request was written. */
export class HeldBackError extends Error {
  constructor() {
    super('not sent: held back before the request was written');
  }
}

/** The error of a post that ran past its time-out: 'timeout' to the retry loop (attempt-error.ts). */
export class PostTimeoutError extends Error {
  override name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
  }
}

const abortError = (): Error => Object.assign(new Error('aborted'), { name: 'AbortError', code: 'ABORT_ERR' });

/**
 * One POST through node:http, read up to `capBytes` of its answer's body: once the cap is reached the
 * connection is closed, so a receiver answering gigabytes cannot fill memory. Rejects when no answer
 * arrived (network error, time-out, refused address, abort, held back).
 *
 * Neither request nor answer is a Writable: Node 24 allocates each Writable's onwrite closure in the
 * old generation, which keeps a client's whole request graph alive through scavenges
 * (docs/design/performance-log.md, thirteenth session); that is why deliveries do not go through got.
 *
 * A 101 Switching Protocols answer is an answer too (its status decides: not 2xx, so permanent,
 * docs/service-rules.md §7): the upgraded socket is closed at once, never left open to the receiver.
 */
export function postForAnswer(post: Post): Promise<CappedAnswer> {
  return new Promise((resolve, reject) => {
    // Aborted already: not even a connection is opened.
    if (post.signal?.aborted) {
      reject(abortError());
      return;
    }
    const secure = post.url.protocol === 'https:';
    const request: ClientRequest = (secure ? https : http).request(post.url, {
      method: 'POST',
      headers: post.headers,
      agent: secure ? post.agents.https : post.agents.http,
      lookup: post.lookup,
    });
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (readError: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      post.signal?.removeEventListener('abort', onAbort);
      if (response === undefined) reject(readError instanceof Error ? readError : new Error('the exchange ended without an answer'));
      else resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks, size), readError });
    };
    /** Ends the exchange with `error` and closes the connection (it cannot carry another request). */
    const abandon = (error: Error): void => {
      settle(error);
      request.destroy(error);
    };
    const onAbort = (): void => abandon(abortError());
    const timer = setTimeout(() => abandon(new PostTimeoutError(post.timeoutMs)), post.timeoutMs);
    request.on('error', settle);
    post.signal?.addEventListener('abort', onAbort, { once: true });
    request.once('response', (answer: IncomingMessage) => {
      response = answer;
      answer.on('data', (chunk: Buffer) => {
        const taken = chunk.subarray(0, Math.max(0, post.capBytes - size));
        if (taken.length > 0) {
          chunks.push(taken);
          size += taken.length;
        }
        if (size >= post.capBytes) {
          settle(null);
          request.destroy();
        }
      });
      answer.once('end', () => settle(null));
      answer.on('error', settle);
      answer.once('close', () => settle(answer.complete ? null : new Error('the answer ended early')));
    });
    request.once('upgrade', (answer: IncomingMessage, socket: Socket) => {
      socket.destroy();
      response = answer;
      settle(null);
    });

    if (!post.beforeSend) {
      request.end(post.body);
      return;
    }
    const beforeSend = post.beforeSend;
    // node writes the headers with the first body bytes: until end(), the receiver sees at most a connection.
    request.once('socket', (socket: Socket) => {
      whenConnected(socket)
        .then(beforeSend)
        .then(
          (go) => {
            if (settled) return;
            if (go) {
              request.end(post.body);
              return;
            }
            abandon(new HeldBackError());
          },
          (error: unknown) => abandon(error instanceof Error ? error : new Error(String(error))),
        );
    });
  });
}
