import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, createDeliveryReceiver, DialogRelayError, type VerifiedDelivery } from '../src/index.js';
import { SHOP, startService, WIDGET, type RunningService } from './support-service.js';

const id = (label: string): string => `${label}-${randomUUID().slice(0, 8)}`;

async function rejection(promise: Promise<unknown>): Promise<DialogRelayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(DialogRelayError);
    return error as DialogRelayError;
  }
  throw new Error('expected the call to fail');
}

describe('sdk: typed client against the running service', () => {
  let service: RunningService;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service.close();
  });

  const shop = () => createClient({ baseUrl: service.url, client: SHOP.client, secret: SHOP.secret });

  it('gets a suggested reply from assist with the typed answer', async () => {
    const msgId = id('assist');
    const answer = await shop().assist({
      msg_id: msgId,
      from_user_id: 'sdk-customer',
      to_user_id: 'sdk-bot',
      content: 'When are you open?',
    });
    expect(answer.status).to.equal(200);
    expect(answer.requestId).to.be.a('string').and.not.equal('');
    expect(answer.data.in_reply_to).to.deep.equal([msgId]);
    expect(answer.data.content[0]?.type).to.equal('text');
    expect(answer.data.context_reused).to.equal(false);
  });

  it('gets the website reply and marks a repeated msg_id as an idempotent replay', async () => {
    const message = { msg_id: id('web'), from_user_id: 'visitor', to_user_id: 'site', content: 'how long does delivery take' };
    const first = await shop().website(message);
    const again = await shop().website(message);
    expect(first.idempotentReplayed).to.equal(false);
    expect(again.idempotentReplayed).to.equal(true);
    expect(again.data).to.deep.equal(first.data);
  });

  it('signs with md5 for a legacy client', async () => {
    const widget = createClient({ baseUrl: service.url, client: WIDGET.client, secret: WIDGET.secret, scheme: 'md5' });
    const answer = await widget.website({ from_user_id: 'widget-visitor', to_user_id: 'site', content: 'When are you open?' });
    expect(answer.data.content).to.have.length.greaterThan(0);
  });

  it('queues an auto reply that arrives at an SDK receiver, verified over its raw body', async () => {
    let resolveDelivery: (delivery: VerifiedDelivery) => void = () => undefined;
    const arrived = new Promise<VerifiedDelivery>((resolve) => (resolveDelivery = resolve));
    const receiver: Server = createServer(createDeliveryReceiver({ secret: SHOP.webhookSecret, onDelivery: (d) => resolveDelivery(d) }));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const sendUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const msgId = id('auto');
      const accepted = await shop().auto(
        { msg_id: msgId, from_user_type: 2, from_user_id: 'auto-customer', to_user_id: 'auto-bound', content: 'When are you open?' },
        { sendUrl },
      );
      expect(accepted.status).to.equal(202);
      expect(accepted.data).to.deep.equal({ conversation_id: accepted.data.conversation_id, msg_id: msgId, status: 'queued' });
      const delivery = await arrived;
      expect(delivery.payload.type).to.equal('auto_dialog.reply');
      expect(delivery.payload.in_reply_to).to.deep.equal([msgId]);
      expect(delivery.payload.conversation_id).to.equal(accepted.data.conversation_id);
      expect(delivery.id).to.equal(delivery.payload.delivery_id);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('stops, reports and resumes auto replies with typed command answers', async () => {
    const participants = { from_user_id: 'cmd-bound', to_user_id: 'cmd-customer' };
    const stop = await shop().command('stop_auto_reply', participants);
    expect(stop.data.auto_reply).to.equal('stopped');
    expect(stop.data.cancelled).to.equal(0);
    const status = await shop().command('auto_reply_status', participants);
    expect(status.data.auto_reply).to.equal('stopped');
    expect(status.data.pending).to.deep.equal([]);
    expect(status.data.deliveries).to.deep.equal([]);
    const resume = await shop().command('resume_auto_reply', participants);
    expect(resume.data).to.deep.equal({ conversation_id: stop.data.conversation_id, command: 'resume_auto_reply', auto_reply: 'active' });
  });

  it('throws a typed error with the code, status, detail and request id for a wrong secret', async () => {
    const wrong = createClient({ baseUrl: service.url, client: SHOP.client, secret: 'not-the-secret-at-all' });
    const error = await rejection(wrong.website({ from_user_id: 'a', to_user_id: 'b', content: 'hi' }));
    expect(error.code).to.equal('invalid_signature');
    expect(error.status).to.equal(401);
    expect(error.details.detail).to.be.a('string').and.include('"client":"shop"');
    expect(error.details.requestId).to.be.a('string');
    expect(error.retryable).to.equal(false);
  });

  it('throws a typed error listing field problems for an invalid message', async () => {
    const error = await rejection(shop().website({ from_user_id: 'a', to_user_id: 'b', message_type: 2 }));
    expect(error.code).to.equal('content_or_files_required');
    expect(error.details.errors?.map((e) => e.code)).to.include.members(['content_or_files_required', 'quote_required']);
  });

  it('throws network_error when nothing answers', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const offline = createClient({ baseUrl: `http://127.0.0.1:${port}`, client: SHOP.client, secret: SHOP.secret });
    const error = await rejection(offline.website({ from_user_id: 'a', to_user_id: 'b', content: 'hi' }));
    expect(error.code).to.equal('network_error');
    expect(error.retryable).to.equal(true);
  });
});
