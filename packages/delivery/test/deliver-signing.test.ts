import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { createDeliverer, type Deliverer } from '../src/index.js';
import { deliveryRequest, SECRET, USER_AGENT } from './delivery-request.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('deliver: a signed webhook reaches the receiver', () => {
  let receiver: Receiver;
  let deliverer: Deliverer;

  beforeEach(async () => {
    receiver = await startReceiver();
    deliverer = createDeliverer({ allowPrivate: true, userAgent: USER_AGENT });
  });

  afterEach(async () => {
    deliverer.close();
    await receiver.close();
  });

  it('POSTs the body with JSON, User-Agent and Standard Webhooks headers', async () => {
    const request = deliveryRequest(receiver.url, { deliveryId: 'dlv-42' });
    const outcome = await deliverer.deliver(request);

    expect(outcome).to.include({ kind: 'delivered', status: 200, error: null, retryAfterMs: null });
    expect(outcome.responseBody).to.equal('{"ok":true}');
    expect(outcome.latencyMs).to.be.a('number').and.at.least(0);
    expect(receiver.requests).to.have.length(1);
    const received = receiver.requests[0]!;
    expect(received.method).to.equal('POST');
    expect(received.url).to.equal('/hook');
    expect(received.body).to.equal(request.body);
    expect(received.headers['content-type']).to.equal('application/json');
    expect(received.headers['user-agent']).to.equal(USER_AGENT);
    expect(received.headers['webhook-id']).to.equal('dlv-42');
    expect(received.headers['webhook-timestamp']).to.equal(String(request.timestampS));
    expect(received.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('signs so that the standardwebhooks library verifies the delivery', async () => {
    await deliverer.deliver(deliveryRequest(receiver.url));
    const received = receiver.requests[0]!;
    const headers = {
      'webhook-id': String(received.headers['webhook-id']),
      'webhook-timestamp': String(received.headers['webhook-timestamp']),
      'webhook-signature': String(received.headers['webhook-signature']),
    };
    const verified = new Webhook(SECRET).verify(received.body, headers);
    expect(verified).to.deep.equal(JSON.parse(received.body));
    expect(() => new Webhook(SECRET).verify(`${received.body} `, headers)).to.throw();
  });

  it('reuses one keep-alive connection for sequential deliveries', async () => {
    const first = await deliverer.deliver(deliveryRequest(receiver.url));
    const second = await deliverer.deliver(deliveryRequest(receiver.url, { deliveryId: 'dlv-2' }));
    expect([first.kind, second.kind]).to.deep.equal(['delivered', 'delivered']);
    expect(receiver.requests).to.have.length(2);
    expect(receiver.connections()).to.equal(1);
  });
});
