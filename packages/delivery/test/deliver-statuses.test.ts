import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { createDeliverer, type Deliverer } from '../src/index.js';
import { deliveryRequest, USER_AGENT } from './delivery-request.js';
import { startReceiver, type Answer, type Receiver } from './receiver.js';

const answerWith =
  (status: number, headers: Record<string, string> = {}, body = ''): Answer =>
  (_request, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

describe('deliver: the answer decides the outcome', () => {
  const receivers: Receiver[] = [];
  let deliverer: Deliverer;

  const receiver = async (answer: Answer): Promise<Receiver> => {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  };

  before(() => {
    deliverer = createDeliverer({ allowPrivate: true, userAgent: USER_AGENT });
  });

  after(async () => {
    deliverer.close();
    await Promise.all(receivers.map((started) => started.close()));
  });

  it('retries a 500 and keeps its status and body', async () => {
    const target = await receiver(answerWith(500, {}, 'boom'));
    const outcome = await deliverer.deliver(deliveryRequest(target.url));
    expect(outcome).to.include({ kind: 'retry', status: 500, error: null, retryAfterMs: null, responseBody: 'boom' });
  });

  it('retries a 503 and honours its Retry-After', async () => {
    const target = await receiver(answerWith(503, { 'retry-after': '2' }));
    const outcome = await deliverer.deliver(deliveryRequest(target.url));
    expect(outcome).to.include({ kind: 'retry', status: 503, retryAfterMs: 2000 });
  });

  it('ignores Retry-After on a permanent answer', async () => {
    const target = await receiver(answerWith(410, { 'retry-after': '2' }, 'gone'));
    const outcome = await deliverer.deliver(deliveryRequest(target.url));
    expect(outcome).to.include({ kind: 'permanent', status: 410, retryAfterMs: null, responseBody: 'gone' });
  });

  it('does not follow a redirect: 302 is permanent and its Location is never requested', async () => {
    const elsewhere = await receiver(answerWith(200));
    const target = await receiver(answerWith(302, { location: elsewhere.url }));
    const outcome = await deliverer.deliver(deliveryRequest(target.url));
    expect(outcome).to.include({ kind: 'permanent', status: 302 });
    expect(target.requests).to.have.length(1);
    expect(elsewhere.requests).to.have.length(0);
    expect(elsewhere.connections()).to.equal(0);
  });

  it('keeps at most 4096 bytes of a 1 MB answer and still classifies by status', async () => {
    const target = await receiver(answerWith(200, { 'content-type': 'text/plain' }, 'x'.repeat(1024 * 1024)));
    const outcome = await deliverer.deliver(deliveryRequest(target.url));
    expect(outcome).to.include({ kind: 'delivered', status: 200 });
    expect(outcome.responseBody).to.equal('x'.repeat(4096));
  });

  it('cuts a multi-byte body at a character boundary within 4096 bytes', async () => {
    // 'a' + 2047 × 'é' is 4095 bytes: the cap falls inside the next 'é'.
    const target = await receiver(answerWith(429, {}, `a${'é'.repeat(5000)}`));
    const outcome = await deliverer.deliver(deliveryRequest(target.url));
    expect(outcome).to.include({ kind: 'retry', status: 429 });
    expect(outcome.responseBody).to.equal(`a${'é'.repeat(2047)}`);
    expect(Buffer.byteLength(outcome.responseBody ?? '')).to.be.at.most(4096);
  });

  it('stops reading an endless answer instead of buffering it', async () => {
    const limit = 512 * 1024 * 1024;
    let written = 0;
    let finished = false;
    const pour = (res: ServerResponse): void => {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      while (written < limit && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', () => pour(res));
          return;
        }
      }
      if (!res.destroyed) res.end(() => (finished = true));
    };
    const target = await receiver((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      pour(res);
    });
    const outcome = await deliverer.deliver(deliveryRequest(target.url));
    expect(outcome).to.include({ kind: 'delivered', status: 200 });
    expect(outcome.responseBody).to.have.length(4096);
    expect(finished).to.equal(false);
    expect(written).to.be.below(limit);
  });
});
