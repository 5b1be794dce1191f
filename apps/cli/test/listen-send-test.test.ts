import { signDelivery } from '@dialog-relay/sdk';
import { expect } from 'chai';
import { connect } from 'node:net';
import { testPayload } from '../src/commands/send-test.command.js';
import { jsonLines, runCli, startCli } from './support/run-cli.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const nowS = (): number => Math.floor(Date.now() / 1000);

describe('cli listen and send-test', () => {
  it('verifies a good delivery and explains a wrong secret, a re-serialized body and a stale timestamp', async () => {
    const listener = startCli(['listen', '--port', '0', '--count', '4', '--secret', SECRET, '--json']);
    const listening = JSON.parse(await listener.nextLine()) as { event: string; url: string };
    expect(listening.event).to.equal('listening');
    expect(listening.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const good = await runCli(['send-test', listening.url, '--secret', SECRET, '--json']);
    expect(good.code, good.stderr).to.equal(0);
    expect(JSON.parse(good.stdout)).to.include({ ok: true, status: 204 });

    const wrong = await runCli(['send-test', listening.url, '--secret', 'whsec_b3RoZXItc2VjcmV0LXZhbHVl', '--json']);
    expect(wrong.code).to.equal(1);
    expect(JSON.parse(wrong.stdout)).to.include({ ok: false, status: 401 });

    // Signed over the pretty-printed JSON, sent compact: what a proxy or framework that re-serializes does.
    const payload = testPayload('demo', nowS());
    const headers = signDelivery({ id: payload.delivery_id, timestamp: nowS(), body: JSON.stringify(payload, null, 2), secret: SECRET });
    const reserialized = await fetch(listening.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(reserialized.status).to.equal(401);

    const stale = await runCli(['send-test', listening.url, '--secret', SECRET, '--at', String(nowS() - 3600), '--json']);
    expect(stale.code).to.equal(1);

    const result = await listener.done;
    expect(result.code, 'listen fails when a delivery was refused').to.equal(1);
    const lines = jsonLines(result.stdout);
    const deliveries = lines.filter((l) => l['event'] === 'delivery');
    expect(deliveries.map((d) => d['reason'])).to.deep.equal([null, 'wrong_secret', 're_serialized_body', 'stale_timestamp']);
    expect(deliveries[0]).to.include({ ok: true });
    expect((deliveries[0]!['payload'] as { type: string }).type).to.equal('auto_dialog.reply');
    expect(deliveries[2]!['explanation']).to.match(/raw bytes/);
    expect(deliveries[3]!['explanation']).to.match(/s old/);
    expect(lines.at(-1)).to.deep.equal({ event: 'summary', received: 4, verified: 1, refused: 3 });
  });

  it('exits 0 after the deliveries it waited for all verified, in plain text', async () => {
    const listener = startCli(['listen', '--port', '0', '--count', '1', '--secret', SECRET]);
    const url = /listening on (\S+)/.exec(await listener.nextLine())?.[1] ?? '';
    const sent = await runCli(['send-test', url, '--secret', SECRET]);
    expect(sent.code).to.equal(0);
    expect(sent.stdout).to.match(/^✔ dlv_test_\S+: 204 in \d+ ms/);
    const result = await listener.done;
    expect(result.code).to.equal(0);
    expect(result.stdout)
      .to.match(/✔ dlv_test_\S+ verified/)
      .and.match(/1 received, 1 verified, 0 refused/);
  });

  it('prints the whole reply text of a verified delivery, however long, and the summary line', async () => {
    const listener = startCli(['listen', '--port', '0', '--count', '1', '--secret', SECRET]);
    const url = /listening on (\S+)/.exec(await listener.nextLine())?.[1] ?? '';
    const payload = testPayload('demo', nowS());
    // Longer than 200 characters, with a quote and a line break: printed whole, on one line.
    payload.message_info.content = `We are open "9 to 5" on weekdays.\n${'Details follow. '.repeat(20)}End of the reply.`;
    const body = JSON.stringify(payload);
    const headers = signDelivery({ id: payload.delivery_id, timestamp: nowS(), body, secret: SECRET });
    const answer = await fetch(new URL('/hook', url), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).to.equal(204);
    const result = await listener.done;
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n').slice(1)).to.deep.equal([
      `✔ ${payload.delivery_id} verified POST /hook: ${JSON.stringify(payload.message_info.content)}`,
      '1 received, 1 verified, 0 refused',
    ]);
  });

  it('keeps listening after a sender disconnects in the middle of a body', async () => {
    const listener = startCli(['listen', '--port', '0', '--count', '1', '--secret', SECRET, '--json']);
    const { url } = JSON.parse(await listener.nextLine()) as { url: string };
    const { port } = new URL(url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type"',
          () => socket.destroy(),
        );
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const sent = await runCli(['send-test', url, '--secret', SECRET, '--json']);
    expect(sent.code, sent.stdout).to.equal(0);
    const result = await listener.done;
    expect(result.stderr).to.equal('');
    expect(jsonLines(result.stdout).at(-1)).to.deep.equal({ event: 'summary', received: 1, verified: 1, refused: 0 });
    expect(result.code).to.equal(0);
  });

  it('refuses a whsec_ secret that holds no key as a usage error instead of crashing on the first delivery', async () => {
    const result = await runCli(['listen', '--port', '0', '--secret', 'whsec_', '--json']);
    expect(result.code).to.equal(2);
    expect(JSON.parse(result.stdout)).to.include({ ok: false });
    expect((JSON.parse(result.stdout) as { error: string }).error).to.match(/secret/);
  });

  it('listens on loopback only', async () => {
    const result = await runCli(['listen', '--host', '0.0.0.0', '--secret', SECRET, '--json']);
    expect(result.code).to.equal(2);
    expect(JSON.parse(result.stdout)).to.deep.equal({ ok: false, error: 'listen binds to loopback only: --host 127.0.0.1 or ::1' });
  });

  it('fails send-test with exit code 1 when nothing answers', async () => {
    const listener = startCli(['listen', '--port', '0', '--count', '1', '--secret', SECRET, '--json']);
    const { url } = JSON.parse(await listener.nextLine()) as { url: string };
    await runCli(['send-test', url, '--secret', SECRET]);
    await listener.done;
    const result = await runCli(['send-test', url, '--secret', SECRET, '--json']);
    expect(result.code).to.equal(1);
    expect(JSON.parse(result.stdout)).to.include({ ok: false, status: null });
  });
});

describe('cli sign (as a process)', () => {
  it('adds --msg-id, --group, --from and --to to the signed body and prints JSON with --json', async () => {
    const result = await runCli([
      'sign',
      '--client',
      'demo',
      '--secret',
      'demo-secret-0001',
      '--event',
      'auto_dialog',
      '--msg-id',
      'm-42',
      '--group',
      'g-7',
      '--from',
      'cust-9',
      '--to',
      'bound-9',
      '--send-url',
      'http://127.0.0.1:9/hook',
      '--json',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    const { body, curl } = JSON.parse(result.stdout) as { body: { message_info: Record<string, unknown> }; curl: string };
    expect(body.message_info).to.include({
      msg_id: 'm-42',
      group_id: 'g-7',
      from_user_id: 'cust-9',
      to_user_id: 'bound-9',
      from_user_type: 2,
    });
    expect(body.message_info['at_list']).to.deep.equal(['bound-9']);
    expect(curl).to.match(/^curl -s /);
  });

  it('exits 2 with the usage for an unknown command or missing options', async () => {
    expect((await runCli(['frobnicate'])).code).to.equal(2);
    const missing = await runCli(['sign', '--client', 'demo', '--json']);
    expect(missing.code).to.equal(2);
    expect(JSON.parse(missing.stdout)).to.deep.equal({
      ok: false,
      error: 'sign needs --client and a secret: --secret, --secret-stdin or DIALOG_RELAY_SECRET',
    });
  });

  it('exits 2 with the usage for an unknown option or an option without its value', async () => {
    const unknown = await runCli(['sign', '--client', 'demo', '--secret', 'demo-secret-0001', '--bogus']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr)
      .to.include("Unknown option '--bogus'")
      .and.to.include('dialog-relay CLI')
      .and.to.include('send-test URL --secret WHSEC');
    const missingValue = await runCli(['listen', '--port']);
    expect(missingValue.code).to.equal(2);
    expect(missingValue.stderr).to.include('--port').and.to.include('dialog-relay CLI');
    const json = await runCli(['send-test', 'http://127.0.0.1:9/hook', '--secret', 'whsec_x', '--colour', 'red', '--json']);
    expect(json.code).to.equal(2);
    const printed = JSON.parse(json.stdout) as { ok: boolean; error: string; usage: string };
    expect(printed.ok).to.equal(false);
    expect(printed.error).to.match(/^Unknown option '--colour'/);
    expect(printed.usage).to.include('dialog-relay CLI');
  });
});
