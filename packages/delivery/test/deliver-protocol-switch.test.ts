import { expect } from 'chai';
import net, { type AddressInfo } from 'node:net';
import { createDeliverer, type AttemptOutcome, type Deliverer } from '../src/index.js';
import { deliveryRequest, USER_AGENT } from './delivery-request.js';

/** A loopback receiver that writes `answer` as raw bytes once the request arrives; resolves `closed` when its connection ends. */
async function startRawReceiver(answer: string): Promise<{ url: string; closed: Promise<void>; close: () => Promise<void> }> {
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      markClosed();
    });
    socket.once('data', () => socket.write(answer));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    closed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The attempt's outcome, or 'still pending' when it has not ended long after its time-out (a hang). */
async function deliverOrHang(deliverer: Deliverer, url: string, timeoutMs: number): Promise<AttemptOutcome | 'still pending'> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'still pending'>((resolve) => (timer = setTimeout(() => resolve('still pending'), timeoutMs * 10)));
  try {
    return await Promise.race([deliverer.deliver(deliveryRequest(url, { timeoutMs })), hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe('deliver: a receiver that switches protocols', () => {
  let deliverer: Deliverer;

  before(() => {
    deliverer = createDeliverer({ allowPrivate: true, userAgent: USER_AGENT });
  });

  after(() => deliverer.close());

  it('ends an attempt answered 101 Switching Protocols as a permanent failure and closes the connection', async () => {
    const receiver = await startRawReceiver('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    try {
      const outcome = await deliverOrHang(deliverer, receiver.url, 300);
      expect(outcome, 'the attempt ended').to.not.equal('still pending');
      expect(outcome).to.include({ kind: 'permanent', status: 101, retryAfterMs: null });
      // The upgraded socket belongs to nobody: the deliverer must not leave it open to the receiver.
      await receiver.closed;
    } finally {
      await receiver.close();
    }
  });
});
