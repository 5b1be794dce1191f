import { expect } from 'chai';
import express from 'express';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeliveryReceiver, signDelivery, type VerifiedDelivery } from '../src/index.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY = '{ "type": "auto_dialog.reply",\n  "delivery_id": "dlv_r1", "in_reply_to": ["m-1"] }';

async function listen(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

async function deliver(url: string, body = BODY, secret = SECRET): Promise<{ status: number; json: Record<string, string> | undefined }> {
  const headers = signDelivery({ id: 'dlv_r1', timestamp: Math.floor(Date.now() / 1000), body, secret });
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, string>) : undefined };
}

describe('sdk: delivery receiver', () => {
  it('verifies the raw body on a plain node:http server and answers 204', async () => {
    const received: VerifiedDelivery[] = [];
    const { url, server } = await listen(createDeliveryReceiver({ secret: SECRET, onDelivery: (d) => void received.push(d) }));
    try {
      expect((await deliver(url)).status).to.equal(204);
      expect(received).to.have.length(1);
      expect(received[0]!.id).to.equal('dlv_r1');
      expect(received[0]!.payload.in_reply_to).to.deep.equal(['m-1']);
      expect(received[0]!.rawBody.toString('utf8')).to.equal(BODY);
    } finally {
      await close(server);
    }
  });

  it('refuses a delivery signed with another secret with 401 and the reason, without calling the handler', async () => {
    let calls = 0;
    const rejected: string[] = [];
    const { url, server } = await listen(
      createDeliveryReceiver({ secret: SECRET, onDelivery: () => void calls++, onRejected: (f) => void rejected.push(f.reason) }),
    );
    try {
      const answer = await deliver(url, BODY, 'whsec_b3RoZXItc2VjcmV0LXZhbHVl');
      expect(answer.status).to.equal(401);
      expect(answer.json).to.include({ error: 'invalid_signature' });
      expect(calls).to.equal(0);
      expect(rejected).to.deep.equal(['invalid_signature']);
    } finally {
      await close(server);
    }
  });

  it('answers 500 when the handler throws, so the service retries', async () => {
    const { url, server } = await listen(
      createDeliveryReceiver({ secret: SECRET, onDelivery: () => Promise.reject(new Error('database down')) }),
    );
    try {
      expect((await deliver(url)).status).to.equal(500);
    } finally {
      await close(server);
    }
  });

  it('works as Express middleware mounted before express.json()', async () => {
    const received: string[] = [];
    const app = express();
    app.post('/hook', createDeliveryReceiver({ secret: SECRET, onDelivery: (d) => void received.push(d.id) }));
    app.use(express.json());
    const { url, server } = await listen(app);
    try {
      expect((await deliver(url)).status).to.equal(204);
      expect(received).to.deep.equal(['dlv_r1']);
    } finally {
      await close(server);
    }
  });

  it('works behind express.raw(), which keeps the bytes', async () => {
    const app = express();
    app.post('/hook', express.raw({ type: 'application/json' }), createDeliveryReceiver({ secret: SECRET, onDelivery: () => undefined }));
    const { url, server } = await listen(app);
    try {
      expect((await deliver(url)).status).to.equal(204);
    } finally {
      await close(server);
    }
  });

  it('explains instead of verifying a re-serialized body when express.json() ran first', async () => {
    const app = express();
    app.use(express.json());
    app.post('/hook', createDeliveryReceiver({ secret: SECRET, onDelivery: () => undefined }));
    const { url, server } = await listen(app);
    try {
      const answer = await deliver(url);
      expect(answer.status).to.equal(500);
      expect(answer.json).to.include({ error: 'body_already_parsed' });
      expect(answer.json?.['message']).to.match(/before express\.json\(\)/);
    } finally {
      await close(server);
    }
  });
  it('refuses to be created with a secret that holds no key or a tolerance that is not a number', () => {
    expect(() => createDeliveryReceiver({ secret: 'whsec_', onDelivery: () => undefined })).to.throw(TypeError, /secret/);
    expect(() => createDeliveryReceiver({ secret: '', onDelivery: () => undefined })).to.throw(TypeError, /secret/);
    expect(() => createDeliveryReceiver({ secret: SECRET, toleranceS: Number.NaN, onDelivery: () => undefined })).to.throw(
      RangeError,
      /toleranceS/,
    );
  });
});
