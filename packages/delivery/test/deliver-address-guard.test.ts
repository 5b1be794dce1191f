import { expect } from 'chai';
import { createDeliverer, type Deliverer } from '../src/index.js';
import { deliveryRequest, USER_AGENT } from './delivery-request.js';
import { fakeResolver } from './fake-resolver.js';
import { installLoopbackTripwire } from './loopback-tripwire.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('deliver: the SSRF guard holds at send time', () => {
  let receiver: Receiver;
  const deliverers: Deliverer[] = [];
  const resolve = fakeResolver({ 'hooks.test': ['127.0.0.1'] });

  const deliverer = (allowPrivate: boolean): Deliverer => {
    const created = createDeliverer({ allowPrivate, userAgent: USER_AGENT, resolve });
    deliverers.push(created);
    return created;
  };

  // Should the guard ever fail, nothing here may reach the forbidden addresses the tests hand it.
  let tripwire: ReturnType<typeof installLoopbackTripwire>;
  before(async () => {
    receiver = await startReceiver();
    tripwire = installLoopbackTripwire();
  });

  after(async () => {
    tripwire.uninstall();
    for (const created of deliverers) created.close();
    await receiver.close();
  });

  afterEach(() => {
    expect(tripwire.attempts, 'connections outside loopback the deliverer tried').to.deep.equal([]);
  });

  it('refuses an IP-literal loopback URL without connecting', async () => {
    const outcome = await deliverer(false).deliver(deliveryRequest(receiver.url));
    expect(outcome).to.include({ kind: 'permanent', status: null, error: 'send_url_forbidden: loopback' });
    expect(receiver.connections()).to.equal(0);
  });

  it('refuses an IPv6 literal loopback URL', async () => {
    const outcome = await deliverer(false).deliver(deliveryRequest(`http://[::1]:${receiver.port}/hook`));
    expect(outcome).to.include({ kind: 'permanent', error: 'send_url_forbidden: loopback' });
  });

  it('refuses a host name that resolves to loopback at connect time', async () => {
    const outcome = await deliverer(false).deliver(deliveryRequest(`http://hooks.test:${receiver.port}/hook`));
    expect(outcome).to.include({ kind: 'permanent', status: null, error: 'send_url_forbidden: loopback' });
    expect(receiver.connections()).to.equal(0);
    expect(receiver.requests).to.have.length(0);
  });

  it('connects to the address the guarded resolver checked when private targets are allowed', async () => {
    const outcome = await deliverer(true).deliver(deliveryRequest(`http://hooks.test:${receiver.port}/hook`));
    expect(outcome).to.include({ kind: 'delivered', status: 200 });
    expect(receiver.requests).to.have.length(1);
    expect(receiver.requests[0]!.headers.host).to.equal(`hooks.test:${receiver.port}`);
  });

  it('retries a host name that does not resolve', async () => {
    const outcome = await deliverer(false).deliver(deliveryRequest('http://nowhere.test/hook'));
    expect(outcome).to.include({ kind: 'retry', status: null, error: 'ENOTFOUND' });
  });

  it('delivers to loopback for a request whose client allows private targets, the deliverer staying strict', async () => {
    const strict = deliverer(false);
    const outcome = await strict.deliver(deliveryRequest(`http://hooks.test:${receiver.port}/hook`, { allowPrivate: true }));
    expect(outcome).to.include({ kind: 'delivered', status: 200 });
    expect((await strict.deliver(deliveryRequest(`http://hooks.test:${receiver.port}/hook`))).kind).to.equal('permanent');
  });

  it('never delivers to link-local or metadata addresses, even for a request that allows private targets', async () => {
    for (const url of ['http://169.254.169.254/latest', 'http://[fd00:ec2::254]/', 'http://[fe80::1]/', 'http://0.0.0.0:9/']) {
      const outcome = await deliverer(false).deliver(deliveryRequest(url, { allowPrivate: true }));
      expect(outcome.kind, url).to.equal('permanent');
      expect(outcome.error, url).to.match(/^send_url_forbidden/);
    }
  });
});
