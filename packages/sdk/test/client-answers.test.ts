import { expect } from 'chai';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, DialogRelayError } from '../src/index.js';

/** A stand-in for the API on loopback that answers every request with `reply`. */
async function fakeApi(reply: (res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => reply(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function failureOf(reply: (res: ServerResponse) => void, options: { timeoutMs?: number } = {}): Promise<unknown> {
  const { url, server } = await fakeApi(reply);
  try {
    await createClient({ baseUrl: url, client: 'shop', secret: 'shop-secret-0001', ...options }).website({
      from_user_id: 'a',
      to_user_id: 'b',
      content: 'hi',
    });
  } catch (error) {
    return error;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  throw new Error('expected the call to fail');
}

describe('sdk: client error typing for answers that are not the API envelope', () => {
  it('throws network_error when the connection breaks while the answer is read', async () => {
    const error = await failureOf((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"code":200,', () => res.destroy());
    });
    expect(error).to.be.instanceOf(DialogRelayError);
    expect(error).to.include({ code: 'network_error', status: 200 });
    expect((error as DialogRelayError).retryable).to.equal(true);
  });

  it('reads Retry-After given as an HTTP date', async () => {
    const error = await failureOf((res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': new Date(Date.now() + 120_000).toUTCString() });
      res.end('{"code":503,"message":"Redis is unreachable","request_id":"r-1","error":"service_unavailable"}');
    });
    expect(error).to.be.instanceOf(DialogRelayError);
    expect(error).to.include({ code: 'service_unavailable', status: 503 });
    expect((error as DialogRelayError).details.retryAfterS).to.be.within(100, 121);
  });

  it('types a non-JSON answer as unexpected_response with its status', async () => {
    const error = await failureOf((res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    expect(error).to.be.instanceOf(DialogRelayError);
    expect(error).to.include({ code: 'unexpected_response', status: 502 });
    // A proxy's 502, 503 or 504 page is as worth retrying as the API's own 503.
    expect((error as DialogRelayError).retryable).to.equal(true);
  });

  it('does not retry an unexpected answer of another status', async () => {
    const error = await failureOf((res) => res.writeHead(400, { 'content-type': 'text/html' }).end('<html>nope</html>'));
    expect(error).to.include({ code: 'unexpected_response', status: 400 });
    expect((error as DialogRelayError).retryable).to.equal(false);
  });

  it('gives up on an API that does not answer within timeoutMs, as a retryable network_error', async () => {
    const error = await failureOf(() => undefined, { timeoutMs: 200 });
    expect(error).to.be.instanceOf(DialogRelayError);
    expect(error).to.include({ code: 'network_error' });
    expect((error as DialogRelayError).message).to.include('200 ms');
    expect((error as DialogRelayError).retryable).to.equal(true);
  });

  it('gives up on an answer whose body stops arriving within timeoutMs', async () => {
    const error = await failureOf(
      (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write('{"code":200,');
      },
      { timeoutMs: 200 },
    );
    expect(error).to.include({ code: 'network_error', status: 200 });
  });
});

describe('sdk: client request target', () => {
  it('keeps the path of a baseUrl behind a reverse proxy prefix', async () => {
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          '{"code":200,"message":"ok","request_id":"r-1","data":{"conversation_id":"c_1","msg_id":"m_1","in_reply_to":[],"content":[]}}',
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const baseUrl of [`${origin}/relay`, `${origin}/relay/`, origin]) {
        await createClient({ baseUrl, client: 'shop', secret: 'shop-secret-0001' }).website({
          from_user_id: 'a',
          to_user_id: 'b',
          content: 'hi',
        });
      }
      expect(paths).to.deep.equal(['/relay/custom-im/chat-messages', '/relay/custom-im/chat-messages', '/custom-im/chat-messages']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
