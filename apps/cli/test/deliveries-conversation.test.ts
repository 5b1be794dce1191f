import { expect } from 'chai';
import { cliDeliveries, deliveryRecord } from './support/delivery-records.js';
import { runCli } from './support/run-cli.js';

describe('cli deliveries and conversation (on Redis, as a process)', () => {
  const cli = cliDeliveries('cli-deliveries');

  const seed = async (): Promise<void> => {
    await cli.deliveries.create(deliveryRecord('dlv_01_a'));
    await cli.deliveries.appendAttempt('dlv_01_a', {
      attempt: 1,
      at: '2023-11-14T22:13:20.000Z',
      status: 503,
      latency_ms: 41,
      error: null,
      response_body: 'busy',
    });
    await cli.deliveries.appendAttempt('dlv_01_a', {
      attempt: 2,
      at: '2023-11-14T22:13:21.000Z',
      status: 200,
      latency_ms: 12,
      error: null,
      response_body: 'ok',
    });
    await cli.deliveries.setState('dlv_01_a', 'delivered');
    await cli.deliveries.create(deliveryRecord('dlv_02_b', { client: 'other', conversation_id: 'c_two' }));
    await cli.deliveries.create(deliveryRecord('dlv_03_c', { conversation_id: 'c_three' }));
  };

  it("lists a conversation's deliveries with every attempt and the receiver's answers", async () => {
    await seed();
    const text = await runCli(['deliveries', 'list', '--conversation', 'c_one'], cli.env);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout.split('\n')).to.include.members([
      'dlv_01_a\tstate=delivered\tconversation=c_one\tclient=acme\tsend_url=https://hooks.example/acme\tin_reply_to=m-1',
      '  #1 2023-11-14T22:13:20.000Z status=503 41ms  answer="busy"',
    ]);
    const json = JSON.parse((await runCli(['deliveries', 'list', '--conversation', 'c_one', '--json'], cli.env)).stdout) as {
      deliveries: { delivery_id: string; attempts: { status: number; response_body: string }[] }[];
    };
    expect(json.deliveries.map((d) => d.delivery_id)).to.deep.equal(['dlv_01_a']);
    expect(json.deliveries[0]!.attempts.map((a) => [a.status, a.response_body])).to.deep.equal([
      [503, 'busy'],
      [200, 'ok'],
    ]);
  });

  it("lists a client's deliveries, newest first", async () => {
    await seed();
    const json = JSON.parse((await runCli(['deliveries', 'list', '--client', 'acme', '--json'], cli.env)).stdout) as {
      deliveries: { delivery_id: string }[];
    };
    expect(json.deliveries.map((d) => d.delivery_id)).to.deep.equal(['dlv_03_c', 'dlv_01_a']);
  });

  it('shows one delivery with its exact body, and exits 1 for an unknown one', async () => {
    await seed();
    const shown = await runCli(['deliveries', 'show', 'dlv_01_a', '--json'], cli.env);
    expect(shown.code).to.equal(0);
    const { delivery } = JSON.parse(shown.stdout) as { delivery: { payload: string; state: string; attempts: unknown[] } };
    expect(delivery).to.include({ payload: '{"type":"auto_dialog.reply"}', state: 'delivered' });
    expect(delivery.attempts).to.have.length(2);
    const missing = await runCli(['deliveries', 'show', 'dlv_missing', '--json'], cli.env);
    expect(missing.code).to.equal(1);
    expect(JSON.parse(missing.stdout)).to.include({ delivery: null });
  });

  it('refuses a list without --conversation or --client with exit code 2', async () => {
    expect((await runCli(['deliveries', 'list'], cli.env)).code).to.equal(2);
  });

  it("stops, reports and resumes a conversation's auto replies", async () => {
    const stop = await runCli(['conversation', 'stop', 'c_cli', '--json'], cli.env);
    expect(stop.code, stop.stderr).to.equal(0);
    expect(JSON.parse(stop.stdout)).to.deep.equal({ conversation_id: 'c_cli', auto_reply: 'stopped', cancelled: 0 });
    const stopped = JSON.parse((await runCli(['conversation', 'status', 'c_cli', '--json'], cli.env)).stdout) as Record<string, unknown>;
    expect(stopped).to.deep.include({ conversation_id: 'c_cli', auto_reply: 'stopped', pending: [], deliveries: [] });
    expect((await runCli(['conversation', 'resume', 'c_cli'], cli.env)).stdout).to.equal('resumed c_cli\n');
    const active = await runCli(['conversation', 'status', 'c_cli'], cli.env);
    expect(active.stdout).to.match(/^c_cli\tauto_reply=active/);
  });
});
