// One TCP look at a port, for the start scripts: is something listening, does it speak Redis.
import { createConnection } from 'node:net';

/**
 * Connects to host:port and answers once: without `send`, true as soon as the connection is made;
 * with it, `send` is written on connecting and `accept` judges the text of the first data that comes
 * back. False on an error, or when `timeoutMs` passes without an answer.
 */
export function probe(host, port, { timeoutMs, send, accept }) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    if (send === undefined) {
      socket.on('connect', () => done(true));
      return;
    }
    socket.on('connect', () => socket.write(send));
    socket.on('data', (data) => done(accept(data.toString())));
  });
}
