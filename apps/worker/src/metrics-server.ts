import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics of a worker replica, behind the same ADMIN_TOKEN as the API's (Authorization:
 * Bearer …). Without a token configured every request is refused with 401, as the API does.
 */
export async function startMetricsServer(options: {
  registry: Registry;
  adminToken: string | undefined;
  host: string;
  port: number;
}): Promise<MetricsServer> {
  const expected = options.adminToken === undefined ? undefined : digest(options.adminToken);
  const answer = (res: import('node:http').ServerResponse, status: number, error: string, message: string): void => {
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ code: status, message, request_id: randomUUID(), error }));
  };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'not_found', `No route for ${req.method ?? ''} ${path ?? ''}.`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'method_not_allowed', 'Use GET /metrics.');
    const header = req.headers.authorization ?? '';
    // RFC 9110 §11.1: the scheme name is case-insensitive.
    const token = /^bearer /i.test(header) ? header.slice(7) : '';
    if (expected === undefined || !timingSafeEqual(digest(token), expected))
      return answer(res, 401, 'unauthorized', 'Send Authorization: Bearer <ADMIN_TOKEN>.');
    options.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
      () => answer(res, 500, 'internal_error', 'Metrics could not be collected.'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
