import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Request } from 'got';

/** An HTTP answer whose body was read up to a byte cap. */
export interface CappedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most the cap's worth of the (decoded) body. */
  body: Buffer;
  /** Set when the body could not be read to the end (the status still counts); null otherwise. */
  readError: unknown;
}

/**
 * Reads a got request stream's answer, keeping at most `capBytes` of its body: once the cap
 * is reached the stream is destroyed, so a receiver answering gigabytes cannot fill memory.
 * Rejects when no answer arrived (network error, time-out, refused address).
 *
 * A 101 Switching Protocols answer is an answer too (its status decides: not 2xx, so permanent,
 * docs/service-rules.md §7). got hands the upgraded socket over with an 'upgrade' event and never
 * ends the stream nor times it out after that, so without this the attempt would hang for good
 * and the socket would stay open to the receiver.
 */
export function readCappedAnswer(stream: Request, capBytes: number): Promise<CappedAnswer> {
  return new Promise((resolve, reject) => {
    let response: Pick<IncomingMessage, 'statusCode' | 'headers'> | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (readError: unknown): void => {
      if (settled) return;
      settled = true;
      if (response === undefined) {
        reject(readError instanceof Error ? readError : new Error('the stream ended without a response'));
        return;
      }
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks, size), readError });
    };
    stream.once('response', (answer: IncomingMessage) => {
      response = answer;
    });
    stream.once('upgrade', (answer: IncomingMessage, socket: Socket) => {
      socket.destroy();
      response = answer;
      finish(null);
      stream.destroy();
    });
    stream.on('data', (chunk: Buffer) => {
      const taken = chunk.subarray(0, Math.max(0, capBytes - size));
      if (taken.length > 0) {
        chunks.push(taken);
        size += taken.length;
      }
      if (size >= capBytes) {
        finish(null);
        stream.destroy();
      }
    });
    stream.once('end', () => finish(null));
    stream.on('error', (err: Error) => finish(err));
  });
}
