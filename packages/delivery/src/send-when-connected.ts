import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { PassThrough } from 'node:stream';
import { TLSSocket } from 'node:tls';
import type { Request } from 'got';

/** Resolves once the socket can carry the request: connected, and for TLS past the handshake. */
export function whenConnected(socket: Socket): Promise<void> {
  // A kept-alive socket is past both; a new one is still connecting when the request gets it.
  if (!socket.connecting) return Promise.resolve();
  return new Promise((resolve) => socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', () => resolve()));
}

/**
 * Holds the request's body in `gate` until the connection is open and `beforeSend` agrees, then
 * writes it; node sends the headers with the first body bytes, so until then the receiver sees at
 * most a connection. A refusal (heldBack is called) or a failing beforeSend destroys the request
 * unsent (docs/design/reply-protocol.md, Stop, resume, status: the check that closes the window of the DNS
 * lookup and the connection).
 */
export function sendWhenConnected(
  stream: Request,
  hold: { gate: PassThrough; body: string; beforeSend: () => Promise<boolean>; heldBack: () => void },
): void {
  stream.once('request', (request: ClientRequest) => {
    request.once('socket', (socket: Socket) => {
      whenConnected(socket)
        .then(() => hold.beforeSend())
        .then(
          (go) => {
            if (go) {
              hold.gate.end(hold.body);
              return;
            }
            hold.heldBack();
            stream.destroy(new Error('not sent: held back before the request was written'));
          },
          (error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))),
        );
    });
  });
}
