import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { delivery_id: string; conversation_id: string; in_reply_to: string[]; message_info: Record<string, unknown> } & Record<
    string,
    unknown
  >;
  at: number;
}

/** How the receiver answers one request; the default is 200. */
export type Responder = (request: Received, index: number, res: ServerResponse) => unknown;

export interface Receiver {
  url: string;
  requests: Received[];
  /** Requests whose connection closed before the receiver answered (the sender aborted). */
  aborted: Received[];
  /** Resolves when `count` requests (in total) have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  respond(responder: Responder): void;
  close(): Promise<void>;
}

/** A real HTTP server on loopback standing in for an integrator's send_url. */
export async function startReceiver(responder?: Responder): Promise<Receiver> {
  const requests: Received[] = [];
  const aborted: Received[] = [];
  let respond: Responder = responder ?? ((_r, _i, res) => res.writeHead(200).end('ok'));
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const received: Received = { headers: req.headers, raw, body: JSON.parse(raw) as Received['body'], at: Date.now() };
      requests.push(received);
      res.on('close', () => {
        if (!res.writableFinished) aborted.push(received);
      });
      for (const waiter of [...waiters]) if (requests.length >= waiter.count) waiter.resolve();
      void Promise.resolve(respond(received, requests.length - 1, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    aborted,
    respond: (next) => {
      respond = next;
    },
    waitFor: (count, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        if (requests.length >= count) {
          resolve(requests);
          return;
        }
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        });
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** What a held answer saw: whether it was sent, and whether the connection closed before (an aborted attempt). */
export interface Hold {
  ended: boolean;
  closedDuringHold: boolean;
}

/** Holds `res` for `holdMs`, then answers 200; `hold` records which came first, the answer or the connection's close. */
export function answerAfter(holdMs: number, res: ServerResponse, hold: Hold = { ended: false, closedDuringHold: false }): Hold {
  const timer = setTimeout(() => {
    hold.ended = true;
    res.writeHead(200).end('ok');
  }, holdMs);
  res.on('close', () => {
    if (!hold.ended) hold.closedDuringHold = true;
    clearTimeout(timer);
  });
  return hold;
}
