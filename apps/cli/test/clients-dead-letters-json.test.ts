import { expect } from 'chai';
import { cliDeliveries, deliveryRecord } from './support/delivery-records.js';
import { jsonLines, runCli } from './support/run-cli.js';

describe('cli clients and dead-letters with --json (on Redis, as a process)', () => {
  const cli = cliDeliveries('cli-json');

  it('adds, lists and removes a client as JSON lines without any secret, and exits 1 removing a missing one', async () => {
    const record = {
      secrets: ['request-secret-1', 'request-secret-2'],
      webhook_secret: 'whsec_d2ViaG9vay1rZXktb2YtYWNtZS0yNGJ5dGVz',
      rate_limit_per_s: 7,
    };
    const added = await runCli(['clients', 'add', 'acme', JSON.stringify(record), '--json'], cli.env);
    expect(added.code, added.stderr).to.equal(0);
    const view = {
      id: 'acme',
      signature_scheme: 'hmac-sha256',
      secrets: 2,
      webhook_secret: true,
      group_policy: 'mention',
      rate_limit_per_s: 7,
      default_send_url: null,
    };
    expect(jsonLines(added.stdout)).to.deep.equal([{ saved: view }]);

    const listed = await runCli(['clients', 'list', '--json'], cli.env);
    expect(listed.code).to.equal(0);
    expect(jsonLines(listed.stdout)).to.deep.equal([{ clients: [view] }]);
    for (const secret of ['request-secret-1', 'request-secret-2', 'd2ViaG9vay1rZXktb2YtYWNtZS0yNGJ5dGVz'])
      expect(added.stdout + listed.stdout).not.to.include(secret);

    expect(jsonLines((await runCli(['clients', 'remove', 'acme', '--json'], cli.env)).stdout)).to.deep.equal([{ removed: 'acme' }]);
    const again = await runCli(['clients', 'remove', 'acme', '--json'], cli.env);
    expect(again.code).to.equal(1);
    expect(jsonLines(again.stdout)).to.deep.equal([{ removed: null, error: 'no client acme' }]);
    expect(jsonLines((await runCli(['clients', 'list', '--json'], cli.env)).stdout)).to.deep.equal([{ clients: [] }]);
  });

  it('refuses an invalid client record as one JSON error line with exit code 1', async () => {
    const refused = await runCli(['clients', 'add', 'acme', '{"secret":"short"}', '--json'], cli.env);
    expect(refused.code).to.equal(1);
    const lines = jsonLines(refused.stdout);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.have.property('ok', false);
    expect(lines[0]!['error']).to.match(/^client "acme": a secret is shorter than 16 characters/);
  });

  it('refuses a default_send_url on loopback unless ALLOW_PRIVATE_SEND_URLS is set for the CLI too', async () => {
    const record = JSON.stringify({ secret: 'acme-secret-0001', default_send_url: 'http://127.0.0.1:9/acme' });
    const refused = await runCli(['clients', 'add', 'acme', record], cli.env);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(/^client "acme": default_send_url resolves to a loopback address/);
    const allowed = await runCli(['clients', 'add', 'acme', record], { ...cli.env, ALLOW_PRIVATE_SEND_URLS: 'true' });
    expect(allowed.code, allowed.stderr).to.equal(0);
  });

  it('lists dead letters with their attempts and replays one, as JSON', async () => {
    expect(jsonLines((await runCli(['dead-letters', 'list', '--json'], cli.env)).stdout)).to.deep.equal([{ dead_letters: [] }]);
    await cli.deliveries.create(deliveryRecord('dlv_01_a'));
    await cli.deliveries.appendAttempt('dlv_01_a', {
      attempt: 1,
      at: '2023-11-14T22:13:20.000Z',
      status: 410,
      latency_ms: 41,
      error: null,
      response_body: 'gone',
    });
    await cli.deliveries.deadLetter('dlv_01_a', 'permanent_status', 'HTTP 410', 1_700_000_001_000);

    const listed = await runCli(['dead-letters', 'list', '--json'], cli.env);
    expect(listed.code, listed.stderr).to.equal(0);
    const [value] = jsonLines(listed.stdout) as [{ dead_letters: (Record<string, unknown> & { attempts: Record<string, unknown>[] })[] }];
    expect(value.dead_letters).to.have.length(1);
    const letter = value.dead_letters[0]!;
    expect(letter).to.include({
      delivery_id: 'dlv_01_a',
      state: 'dead',
      dead_reason: 'permanent_status',
      dead_detail: 'HTTP 410',
      client: 'acme',
    });
    expect(letter).not.to.have.property('payload');
    expect(letter.attempts).to.deep.equal([
      { attempt: 1, at: '2023-11-14T22:13:20.000Z', status: 410, latency_ms: 41, error: null, response_body: 'gone' },
    ]);

    const replayed = await runCli(['dead-letters', 'replay', 'dlv_01_a', '--json'], cli.env);
    expect(replayed.code, replayed.stderr).to.equal(0);
    expect(jsonLines(replayed.stdout)).to.deep.equal([{ queued: 'dlv_01_a' }]);
    expect(jsonLines((await runCli(['dead-letters', 'list', '--json'], cli.env)).stdout)).to.deep.equal([{ dead_letters: [] }]);
  });

  it('refuses to replay an id that is not a dead letter as one JSON error line with exit code 1', async () => {
    const refused = await runCli(['dead-letters', 'replay', 'dlv_missing', '--json'], cli.env);
    expect(refused.code).to.equal(1);
    expect(jsonLines(refused.stdout)).to.deep.equal([{ ok: false, error: 'dlv_missing is not a dead letter' }]);
  });

  it('answers a usage error of clients and dead-letters with exit code 2 and a JSON error line', async () => {
    for (const args of [
      ['clients', 'rename'],
      ['dead-letters', 'purge'],
    ]) {
      const result = await runCli([...args, '--json'], cli.env);
      expect(result.code, args.join(' ')).to.equal(2);
      expect(jsonLines(result.stdout)[0]).to.include({ ok: false });
    }
  });
});
