import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

/** Resolves once the socket can carry the request: connected, and for TLS past the handshake. */
export function whenConnected(socket: Socket): Promise<void> {
  // A kept-alive socket is past both; a new one is still connecting when the request gets it.
  if (!socket.connecting) return Promise.resolve();
  return new Promise((resolve) => socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', () => resolve()));
}
