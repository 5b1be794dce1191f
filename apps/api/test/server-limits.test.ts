import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { envelopeOf, rawExchange } from './support/raw-http.js';
import { startTestApi, type TestApi } from './support/test-api.js';

/** docs/service-rules.md §16: time-outs for headers, the whole request, idle connections and clients that do not read. */
describe('HTTP server time-outs', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600', HTTP_IDLE_TIMEOUT_MS: '400' });
  });
  after(() => t.close());

  const connections = (): Promise<number> =>
    new Promise((resolve, reject) => t.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  const open = (): Promise<Socket> =>
    new Promise((resolve) => {
      const socket: Socket = connect(Number(new URL(t.url).port), '127.0.0.1', () => resolve(socket));
    });

  /** A keep-alive connection that has had one answer and is now idle. */
  const keepAlive = async (
    url: string,
  ): Promise<{ socket: Socket; closed: Promise<void>; isClosed: () => boolean; request: () => Promise<string> }> => {
    const socket: Socket = await new Promise((resolve) => {
      const opened: Socket = connect(Number(new URL(url).port), '127.0.0.1', () => resolve(opened));
    });
    let ended = false;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.once('end', () => (ended = true));
    void closed.then(() => (ended = true));
    const request = (): Promise<string> =>
      new Promise((resolve, reject) => {
        const closedFirst = (): void => reject(new Error('the server closed the connection instead of answering'));
        const answer = (chunk: Buffer): void => {
          socket.off('close', closedFirst);
          resolve(chunk.toString('utf8'));
        };
        socket.once('data', answer);
        socket.once('close', closedFirst);
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      });
    expect(await request()).to.match(/^HTTP\/1\.1 200 /);
    return { socket, closed, isClosed: () => ended, request };
  };

  it('closes a connection whose headers never finish, answering 408 in the envelope', async () => {
    const raw = await rawExchange(t.url, 'POST /custom-im/chat-messages HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const answer = envelopeOf(raw);
    expect(answer.statusLine).to.match(/^HTTP\/1\.1 408 /);
    expect(answer.json).to.include({ code: 408, error: 'request_timeout' });
  });

  it('closes a connection whose body never finishes, answering 408 in the envelope', async () => {
    const raw = await rawExchange(
      t.url,
      'POST /custom-im/chat-messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"client":',
    );
    const answer = envelopeOf(raw);
    expect(answer.statusLine).to.match(/^HTTP\/1\.1 408 /);
    expect(answer.json).to.include({ code: 408, error: 'request_timeout' });
  });

  it('closes a keep-alive connection after its 1,000th answer, never answering a later request with a bare 503', async () => {
    const connection = await keepAlive(t.url);
    let last = '';
    for (let n = 2; n <= 1000; n++) last = await connection.request();
    expect(last).to.match(/^HTTP\/1\.1 200 /);
    expect(last.toLowerCase()).to.include('connection: close');
    // A client that writes once more on the connection gets no 503 without the envelope: the server has closed it.
    const after = await connection.request().then(
      (answer) => answer.split('\r\n')[0] ?? '',
      () => 'closed',
    );
    expect(after).to.equal('closed');
    await connection.closed;
  });

  it('closes an idle keep-alive connection after HTTP_IDLE_TIMEOUT_MS, while a server configured longer keeps its own open', async () => {
    const patient = await startTestApi({ HTTP_IDLE_TIMEOUT_MS: '600000' });
    try {
      // The patient server's connection goes idle first: with one idle time-out for both, it would close first.
      const long = await keepAlive(patient.url);
      const short = await keepAlive(t.url);
      await short.closed;
      expect(long.isClosed(), 'the connection of the server with the long idle time-out').to.equal(false);
      expect(await long.request()).to.match(/^HTTP\/1\.1 200 /);
      long.socket.destroy();
    } finally {
      await patient.close();
    }
  });

  it('drops a client that sends requests but never reads its answers', async () => {
    const socket = await open();
    socket.pause();
    socket.on('error', () => undefined);
    const request = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    socket.write(request.repeat(40_000));
    await waitUntil(async () => (await connections()) === 0, 20_000);
    socket.destroy();
  });
});
