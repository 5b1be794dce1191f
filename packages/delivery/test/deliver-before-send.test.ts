import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { expect } from 'chai';
import { waitUntil } from '@dialog-relay/testkit';
import { createDeliverer, NOT_SENT, type Deliverer } from '../src/index.js';
import { whenConnected } from '../src/when-connected.js';
import { deliveryRequest, USER_AGENT } from './delivery-request.js';
import { fakeResolver } from './fake-resolver.js';
import { startReceiver, type Receiver } from './receiver.js';

/** A bare TCP server on loopback that records every byte it is sent and never answers. */
async function startListener(): Promise<{ port: number; bytes: () => number; connections: () => number; close: () => Promise<void> }> {
  let bytes = 0;
  let connections = 0;
  const server: Server = createTcpServer((socket) => {
    connections += 1;
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    bytes: () => bytes,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * beforeSend closes the window between the stop check and the request (docs/design/reply-protocol.md,
 * Stop, resume, status): it is asked once the connection is open, and nothing of the request is
 * written before it agrees. Host names resolve to loopback only.
 */
describe('deliver: beforeSend holds the request until the connection is open', () => {
  let deliverer: Deliverer;
  let receiver: Receiver;
  before(async () => {
    deliverer = createDeliverer({ allowPrivate: true, userAgent: USER_AGENT, resolve: fakeResolver({ 'receiver.test': ['127.0.0.1'] }) });
    receiver = await startReceiver();
  });
  after(async () => {
    deliverer.close();
    await receiver.close();
  });

  it('writes no byte of the request when beforeSend refuses once the connection is open', async () => {
    const listener = await startListener();
    try {
      let connectionsWhenAsked = -1;
      const outcome = await deliverer.deliver(
        deliveryRequest(`http://receiver.test:${listener.port}/hook`, {
          beforeSend: async () => {
            await waitUntil(() => listener.connections() === 1, 5000);
            connectionsWhenAsked = listener.connections();
            return false;
          },
        }),
      );
      expect(connectionsWhenAsked).to.equal(1);
      expect(outcome).to.include({ kind: 'permanent', status: null, error: NOT_SENT, responseBody: null });
      expect(listener.bytes()).to.equal(0);
    } finally {
      await listener.close();
    }
  });

  it('posts the whole signed body once beforeSend agrees', async () => {
    const request = deliveryRequest(`http://receiver.test:${receiver.port}/hook`, { beforeSend: () => Promise.resolve(true) });
    const before = receiver.requests.length;
    const outcome = await deliverer.deliver(request);
    expect(outcome).to.include({ kind: 'delivered', status: 200 });
    const received = receiver.requests[before];
    expect(received?.body).to.equal(request.body);
    expect(received?.headers['content-length']).to.equal(String(Buffer.byteLength(request.body)));
    expect(received?.headers['transfer-encoding']).to.equal(undefined);
    expect(received?.headers['webhook-id']).to.equal('dlv-test');
  });

  it('asks beforeSend again for a request on a kept-alive connection', async () => {
    let asked = 0;
    const beforeSend = (): Promise<boolean> => Promise.resolve((asked += 1) === 1);
    const url = `http://receiver.test:${receiver.port}/hook`;
    const before = receiver.requests.length;
    expect(await deliverer.deliver(deliveryRequest(url, { beforeSend }))).to.include({ kind: 'delivered' });
    const connections = receiver.connections();
    const second = await deliverer.deliver(deliveryRequest(url, { beforeSend }));
    expect(asked).to.equal(2);
    expect(second).to.include({ error: NOT_SENT, status: null });
    // the second request had the first one's connection, and nothing of it was sent
    expect(receiver.connections()).to.equal(connections);
    expect(receiver.requests.length - before).to.equal(1);
  });

  it('sends nothing and retries when beforeSend fails', async () => {
    const before = receiver.requests.length;
    const outcome = await deliverer.deliver(
      deliveryRequest(`http://receiver.test:${receiver.port}/hook`, {
        beforeSend: () => Promise.reject(Object.assign(new Error('Connection is closed.'), { code: 'ECONNCLOSED' })),
      }),
    );
    expect(outcome).to.include({ kind: 'retry', status: null, error: 'ECONNCLOSED' });
    expect(receiver.requests.length).to.equal(before);
  });

  it('waits for the TLS handshake, not only the TCP connection, before asking', async () => {
    const listener = await startListener();
    const socket = connectTls({ host: '127.0.0.1', port: listener.port, rejectUnauthorized: false });
    socket.on('error', () => undefined);
    try {
      let connected = false;
      void whenConnected(socket).then(() => (connected = true));
      // The client hello arrives only after the TCP connection is up; no handshake answer ever comes.
      await waitUntil(() => listener.bytes() > 0, 5000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(socket.connecting).to.equal(false);
      expect(connected).to.equal(false);
    } finally {
      socket.destroy();
      await listener.close();
    }
  });
});
