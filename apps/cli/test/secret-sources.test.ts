import { signRequest } from '@dialog-relay/sdk';
import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { jsonLines, runCli, startCli } from './support/run-cli.js';

const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SECRET = 'demo-secret-0001';

/** The secret sign used, as the signature it put in the body shows. */
async function signedWith(args: string[], env: Record<string, string> = {}, input?: string): Promise<string> {
  const result = await runCli(['sign', '--client', 'demo', '--msg-id', 'm-1', ...args, '--json'], env, input);
  expect(result.code, result.stderr).to.equal(0);
  const { body } = JSON.parse(result.stdout) as { body: Record<string, unknown> & { signature: string } };
  const { signature, ...unsigned } = body;
  for (const candidate of [SECRET, 'from-stdin-secret', 'from-env-secret']) {
    if (signRequest(unsigned, { secret: candidate, scheme: 'hmac-sha256' }) === signature) return candidate;
  }
  throw new Error('signed with none of the test secrets');
}

describe('cli secrets from the environment or stdin, not only arguments (ps shows arguments)', function () {
  this.timeout(30_000);

  it('sign takes the client secret from --secret, --secret-stdin (first line) or DIALOG_RELAY_SECRET, the argument first', async () => {
    expect(await signedWith(['--secret', SECRET])).to.equal(SECRET);
    expect(await signedWith(['--secret-stdin'], {}, 'from-stdin-secret\nnot this line\n')).to.equal('from-stdin-secret');
    expect(await signedWith([], { DIALOG_RELAY_SECRET: 'from-env-secret' })).to.equal('from-env-secret');
    expect(await signedWith(['--secret-stdin'], { DIALOG_RELAY_SECRET: 'from-env-secret' }, 'from-stdin-secret')).to.equal(
      'from-stdin-secret',
    );
    expect(await signedWith(['--secret', SECRET], { DIALOG_RELAY_SECRET: 'from-env-secret' })).to.equal(SECRET);
  });

  it('refuses --secret with --secret-stdin, and an empty stdin, as usage errors (exit 2)', async () => {
    const both = await runCli(['sign', '--client', 'demo', '--secret', SECRET, '--secret-stdin'], {}, `${SECRET}\n`);
    expect(both.code).to.equal(2);
    expect(both.stderr).to.include('--secret or --secret-stdin, not both');
    const empty = await runCli(['sign', '--client', 'demo', '--secret-stdin'], {}, '');
    expect(empty.code).to.equal(2);
    expect(empty.stderr).to.include('DIALOG_RELAY_SECRET');
  });

  it('listen and send-test take the webhook secret from --secret-stdin or DIALOG_RELAY_WEBHOOK_SECRET', async () => {
    const listener = startCli(['listen', '--port', '0', '--count', '2', '--secret-stdin', '--json'], {}, `${WEBHOOK_SECRET}\n`);
    const { url } = JSON.parse(await listener.nextLine()) as { url: string };
    const fromEnv = await runCli(['send-test', url, '--json'], { DIALOG_RELAY_WEBHOOK_SECRET: WEBHOOK_SECRET });
    expect(fromEnv.code, fromEnv.stderr).to.equal(0);
    expect(JSON.parse(fromEnv.stdout)).to.include({ ok: true, status: 204 });
    const fromStdin = await runCli(['send-test', url, '--secret-stdin', '--json'], {}, WEBHOOK_SECRET);
    expect(fromStdin.code, fromStdin.stderr).to.equal(0);
    const result = await listener.done;
    expect(result.code, result.stderr).to.equal(0);
    expect(jsonLines(result.stdout).at(-1)).to.deep.equal({ event: 'summary', received: 2, verified: 2, refused: 0 });
  });

  it('listen takes the webhook secret from DIALOG_RELAY_WEBHOOK_SECRET, and without any secret exits 2 naming the three sources', async () => {
    const listener = startCli(['listen', '--port', '0', '--count', '1', '--json'], { DIALOG_RELAY_WEBHOOK_SECRET: WEBHOOK_SECRET });
    const { url } = JSON.parse(await listener.nextLine()) as { url: string };
    expect((await runCli(['send-test', url, '--secret', WEBHOOK_SECRET])).code).to.equal(0);
    expect((await listener.done).code).to.equal(0);
    const missing = await runCli(['listen', '--port', '0']);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.include('--secret-stdin').and.to.include('DIALOG_RELAY_WEBHOOK_SECRET');
  });

  it('clients add takes the record (which holds secrets) from --record-stdin or DIALOG_RELAY_CLIENT_RECORD', async () => {
    const env = { ...testRedisEnv(), REDIS_PREFIX: uniquePrefix('cli-secrets') };
    const record = (secret: string): string => JSON.stringify({ secret, webhook_secret: WEBHOOK_SECRET });
    const fromStdin = await runCli(['clients', 'add', 'acme', '--record-stdin', '--json'], env, `${record('request-secret-stdin')}\n`);
    expect(fromStdin.code, fromStdin.stderr).to.equal(0);
    const fromEnv = await runCli(['clients', 'add', 'beta', '--json'], {
      ...env,
      DIALOG_RELAY_CLIENT_RECORD: record('request-secret-env1'),
    });
    expect(fromEnv.code, fromEnv.stderr).to.equal(0);
    const listed = jsonLines((await runCli(['clients', 'list', '--json'], env)).stdout)[0] as {
      clients: { id: string; secrets: number; webhook_secret: boolean }[];
    };
    expect(listed.clients.map((c) => [c.id, c.secrets, c.webhook_secret])).to.deep.equal([
      ['acme', 1, true],
      ['beta', 1, true],
    ]);
    const none = await runCli(['clients', 'add', 'gamma'], env);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.include('--record-stdin');
  });
});
