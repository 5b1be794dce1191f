import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = (request: ReceivedRequest, res: ServerResponse) => void;

export interface Receiver {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** TCP connections currently open. */
  openConnections(): number;
  /** Resolves once no connection is open. */
  connectionsClosed(): Promise<void>;
  close(): Promise<void>;
}

export const answerOk: Answer = (_request, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"ok":true}');
};

/** A real webhook receiver on 127.0.0.1:0 that records every request, then lets `answer` respond. */
export async function startReceiver(answer: Answer = answerOk): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const open = new Set<Socket>();
  let waiters: Array<() => void> = [];
  const settleWaiters = (): void => {
    if (open.size > 0) return;
    for (const waiter of waiters) waiter();
    waiters = [];
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      answer(recorded, res);
    });
  });
  // Idle keep-alive connections stay open until the client (or close()) ends them.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      settleWaiters();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    connections: () => connections,
    openConnections: () => open.size,
    connectionsClosed: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        settleWaiters();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
