import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReceiver, type Receiver } from './support/receiver.js';
import { startSystem, type System } from './support/system.js';

/** SIGTERM while the reply engine is still answering (docs/service-rules.md §12): the drain hands the turn back. */
describe('worker drain during reply production (real worker process)', function () {
  let system: System;
  let receiver: Receiver;
  let chat: Server;
  let asked: () => void = () => undefined;
  const engineAsked = new Promise<void>((resolve) => (asked = resolve));
  before(async () => {
    receiver = await startReceiver();
    // A chat-completions server that takes the request and never answers.
    chat = createServer((req) => {
      req.resume();
      asked();
    });
    await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
    const { port } = chat.address() as AddressInfo;
    system = await startSystem({
      workers: 1,
      env: {
        REPLY_ENGINE: 'openai',
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_API_KEY: 'sk-drain-test-0123456789',
        OPENAI_TIMEOUT_MS: '120000',
        OPENAI_MAX_RETRIES: '0',
        SHUTDOWN_TIMEOUT_MS: '1000',
        DELIVERY_TIMEOUT_MS: '1000',
        LOG_LEVEL: 'info',
      },
    });
  });
  after(async () => {
    await system.close();
    await receiver.close();
    chat.closeAllConnections();
    await new Promise((resolve) => chat.close(resolve));
  });

  it('hands back the turn whose engine call is in flight and exits 0, without failing the job', async () => {
    const accepted = await system.send({ from_user_id: 'drain-customer', to_user_id: 'bound', content: 'hi' }, { send_url: receiver.url });
    await engineAsked;
    const worker = system.workers[0]!;
    worker.child.kill('SIGTERM');
    expect(await worker.exited, worker.output()).to.equal(0);
    expect(worker.output()).to.include('reply production handed back');
    expect(worker.output()).to.not.include('job run failed');
    expect(worker.output()).to.not.include('drain timed out');
    // Handed back due now, for the next worker to take up: nothing is lost.
    expect(await system.turnJobState(String(accepted.json.data?.['conversation_id']), 0)).to.be.oneOf(['delayed', 'waiting']);
  });
});
