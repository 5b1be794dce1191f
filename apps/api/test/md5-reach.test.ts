import { signMd5 } from '@dialog-relay/signing';
import { expect } from 'chai';
import { bodyFor, CLIENTS, nowS, post, startTestApi, type Body, type TestApi } from './support/test-api.js';

const KIOSK_SECRET = 'kiosk-secret-0001';
const CONSOLE_SECRET = 'console-secret-01';

/** docs/service-rules.md §16: a captured md5 signature must not redirect replies or stop conversations. */
describe('md5 clients cannot choose where replies go', () => {
  let t: TestApi;
  before(async () => {
    t = await startTestApi({
      CLIENTS: JSON.stringify({
        ...CLIENTS,
        kiosk: { secret: KIOSK_SECRET, signature_scheme: 'md5', default_send_url: 'http://127.0.0.1:9/kiosk' },
        console: { secret: CONSOLE_SECRET, signature_scheme: 'md5', allow_commands: true },
      }),
    });
  });
  after(() => t.close());

  const md5Signed = (
    client: string,
    secret: string,
    event: string,
    info: Record<string, unknown> = {},
    top: Record<string, unknown> = {},
  ): Body => {
    const timestamp = nowS();
    return { ...bodyFor(event, info, { ...top, client, timestamp }), signature: signMd5(secret, timestamp, client) };
  };

  it('refuses an md5 send_url that differs from the client default_send_url with 400 send_url_forbidden', async () => {
    const answer = await post(t.url, md5Signed('kiosk', KIOSK_SECRET, 'auto_dialog', {}, { send_url: 'http://127.0.0.1:9/attacker' }));
    expect(answer.status).to.equal(400);
    expect(answer.json['error']).to.equal('send_url_forbidden');
    expect(answer.json.detail).to.include('default_send_url');
  });

  it('refuses any send_url from an md5 client without a default_send_url', async () => {
    const answer = await post(t.url, md5Signed('widget', 'widget-secret-01', 'auto_dialog', { send_url: 'http://127.0.0.1:9/attacker' }));
    expect(answer.status).to.equal(400);
    expect(answer.json['error']).to.equal('send_url_forbidden');
  });

  it('accepts an md5 auto_dialog that names its default_send_url or none', async () => {
    expect(
      (await post(t.url, md5Signed('kiosk', KIOSK_SECRET, 'auto_dialog', {}, { send_url: 'http://127.0.0.1:9/kiosk' }))).status,
    ).to.equal(202);
    expect((await post(t.url, md5Signed('kiosk', KIOSK_SECRET, 'auto_dialog'))).status).to.equal(202);
  });

  it('refuses cmd_dialog from an md5 client without allow_commands with 403 command_not_allowed', async () => {
    const answer = await post(t.url, md5Signed('widget', 'widget-secret-01', 'cmd_dialog', { content: 'stop_auto_reply' }));
    expect(answer.status).to.equal(403);
    expect(answer.json).to.include({ code: 403, error: 'command_not_allowed' });
  });

  it("accepts a human's auto_dialog (from_user_type 1 or 3) from an md5 client without allow_commands: human takeover stays for every client", async () => {
    for (const fromUserType of [1, 3]) {
      const answer = await post(
        t.url,
        md5Signed('kiosk', KIOSK_SECRET, 'auto_dialog', {
          from_user_type: fromUserType,
          from_user_id: 'staff-1',
          to_user_id: 'customer-1',
        }),
      );
      expect(answer.status, JSON.stringify(answer.json)).to.equal(202);
    }
  });

  it('accepts cmd_dialog from an md5 client with allow_commands: true', async () => {
    const answer = await post(t.url, md5Signed('console', CONSOLE_SECRET, 'cmd_dialog', { content: 'auto_reply_status' }));
    expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
  });
});
