import { expect } from 'chai';
import { freePort, waitUntil } from '@dialog-relay/testkit';
import { createDeliverer, type Deliverer } from '../src/index.js';
import { deliveryRequest, USER_AGENT } from './delivery-request.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('deliver: failures without an answer are outcomes, not exceptions', () => {
  let deliverer: Deliverer;
  let silent: Receiver;

  before(async () => {
    deliverer = createDeliverer({ allowPrivate: true, userAgent: USER_AGENT });
    silent = await startReceiver(() => {
      /* never answers */
    });
  });

  after(async () => {
    deliverer.close();
    await silent.close();
  });

  it('retries a receiver slower than timeoutMs as a timeout, after about timeoutMs', async () => {
    const outcome = await deliverer.deliver(deliveryRequest(silent.url, { timeoutMs: 200 }));
    expect(outcome).to.include({ kind: 'retry', status: null, error: 'timeout', responseBody: null });
    expect(outcome.latencyMs).to.be.within(180, 1000);
    expect(silent.requests).to.have.length(1);
  });

  it('classifies by status when the body stalls after the headers, noting the timeout', async () => {
    const stalling = await startReceiver((_request, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    try {
      const outcome = await deliverer.deliver(deliveryRequest(stalling.url, { timeoutMs: 200 }));
      expect(outcome).to.include({ kind: 'delivered', status: 200, error: 'timeout', responseBody: 'partial' });
    } finally {
      await stalling.close();
    }
  });

  it('ends an attempt at once when its signal aborts, and sends nothing when it was aborted before', async () => {
    const received = silent.requests.length;
    const controller = new AbortController();
    const pending = deliverer.deliver(deliveryRequest(silent.url, { timeoutMs: 10_000, signal: controller.signal }));
    await waitUntil(() => silent.requests.length === received + 1, 5000);
    const abortedAt = performance.now();
    controller.abort();
    const outcome = await pending;
    expect(performance.now() - abortedAt, 'ended within a second of the abort').to.be.lessThan(1000);
    expect(outcome).to.include({ status: null, responseBody: null, error: 'ABORT_ERR' });
    const before = silent.connections();
    const early = await deliverer.deliver(deliveryRequest(silent.url, { signal: AbortSignal.abort() }));
    expect(early).to.include({ status: null, error: 'ABORT_ERR' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(silent.requests, 'nothing more reached the receiver').to.have.length(received + 1);
    expect(silent.connections(), 'not even a connection').to.equal(before);
  });

  it('retries a closed port as ECONNREFUSED', async () => {
    const port = await freePort();
    const outcome = await deliverer.deliver(deliveryRequest(`http://127.0.0.1:${port}/hook`));
    expect(outcome).to.include({ kind: 'retry', status: null, error: 'ECONNREFUSED', retryAfterMs: null });
  });

  it('treats an unusable URL as permanent', async () => {
    for (const url of ['not a url', 'ftp://127.0.0.1/hook']) {
      const outcome = await deliverer.deliver(deliveryRequest(url));
      expect(outcome.kind, url).to.equal('permanent');
      expect(outcome.status, url).to.equal(null);
      expect(outcome.error, url).to.match(/^invalid_send_url/);
    }
  });

  it('close() ends the idle keep-alive connections', async () => {
    const receiver = await startReceiver();
    const closing = createDeliverer({ allowPrivate: true, userAgent: USER_AGENT });
    try {
      expect((await closing.deliver(deliveryRequest(receiver.url))).kind).to.equal('delivered');
      expect(receiver.openConnections()).to.equal(1);
      closing.close();
      // The receiver would keep an idle connection for a minute; close() must end it at once.
      let timer: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        receiver.connectionsClosed().then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 1000))),
      ]);
      clearTimeout(timer);
      expect(ended, 'idle connection ended').to.equal(true);
    } finally {
      closing.close();
      await receiver.close();
    }
  });
});
