import { explainDelivery, webhookKey } from '@dialog-relay/sdk';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { output, UsageError, type Output, type Printer } from '../output.js';

export interface ListenOptions {
  secret: string;
  host: string;
  port: number;
  /** Stop after this many deliveries (else on the signal). */
  count: number | undefined;
  toleranceS: number;
  print: Printer;
  signal: AbortSignal;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * `listen`: a receiver on loopback that verifies every delivery over its raw body and explains a
 * failure (wrong secret, re-serialized body, stale timestamp, secret format). Answers 204 or 401.
 * Succeeds (exit 0) when every delivery it received verified.
 */
export async function listenCommand(options: ListenOptions): Promise<Output> {
  if (!LOOPBACK.has(options.host)) throw new UsageError('listen binds to loopback only: --host 127.0.0.1 or ::1');
  if (options.secret.length === 0)
    throw new UsageError('listen needs your whsec_… webhook secret: --secret, --secret-stdin or DIALOG_RELAY_WEBHOOK_SECRET');
  try {
    webhookKey(options.secret);
  } catch (error) {
    throw new UsageError(`listen --secret: ${error instanceof Error ? error.message : String(error)}`);
  }
  let received = 0;
  let failed = 0;
  const server = createServer((req, res) => {
    void readBody(req).then(
      (raw) => {
        const diagnosis =
          raw === undefined
            ? { ok: false, reason: 'payload_too_large', explanation: `body over ${MAX_BODY_BYTES} bytes` }
            : explainDelivery(raw, req.headers, options.secret, { toleranceS: options.toleranceS });
        const id = typeof req.headers['webhook-id'] === 'string' ? req.headers['webhook-id'] : '(no webhook-id)';
        received += 1;
        if (!diagnosis.ok) failed += 1;
        let payload: unknown;
        try {
          payload = diagnosis.ok && raw ? JSON.parse(raw.toString('utf8')) : undefined;
        } catch {
          payload = undefined;
        }
        options.print(
          diagnosis.ok
            ? `✔ ${id} verified ${req.method ?? ''} ${req.url ?? ''}${replyText(payload)}`
            : `✘ ${id} refused: ${diagnosis.reason ?? ''}: ${diagnosis.explanation}`,
          {
            event: 'delivery',
            id,
            ok: diagnosis.ok,
            reason: diagnosis.reason ?? null,
            explanation: diagnosis.explanation,
            payload: payload ?? null,
          },
        );
        res.statusCode = diagnosis.ok ? 204 : 401;
        if (!diagnosis.ok) res.setHeader('content-type', 'application/json');
        res.end(diagnosis.ok ? undefined : JSON.stringify({ error: diagnosis.reason, message: diagnosis.explanation }));
        if (options.count !== undefined && received >= options.count) server.close();
      },
      () => {
        // The sender went away in the middle of its body: nothing to verify and no one to answer.
        req.socket.destroy();
      },
    );
  });
  const closed = new Promise<void>((resolve) => server.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port, address } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}/`;
  options.print(`listening on ${url} (verifying with the given secret; Ctrl-C to stop)`, { event: 'listening', url });
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
  };
  if (options.signal.aborted) stop();
  options.signal.addEventListener('abort', stop, { once: true });
  await closed;
  const ok = failed === 0;
  return output(
    `${received} received, ${received - failed} verified, ${failed} refused`,
    { event: 'summary', received, verified: received - failed, refused: failed },
    ok,
  );
}

/** The reply's text (message_info.content) as one quoted line, for the plain-text listing. */
function replyText(payload: unknown): string {
  const info = typeof payload === 'object' && payload !== null ? (payload as { message_info?: unknown }).message_info : undefined;
  const content = typeof info === 'object' && info !== null ? (info as { content?: unknown }).content : undefined;
  return typeof content === 'string' ? `: ${JSON.stringify(content)}` : ' (no message_info.content in the body)';
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
