import type { ClientSettings } from '@dialog-relay/config';
import { AppError } from '@dialog-relay/contracts';
import type { SendUrlVerdict } from '@dialog-relay/net-guard';

/** Checks a send_url against the address policy that applies to this client. */
export type SendUrlChecker = (raw: string, client: ClientSettings) => Promise<SendUrlVerdict>;

/** docs/service-rules.md §4 and §7: the request's send_url or the client's default, checked against the address policy. */
export async function resolveSendUrl(requested: string | undefined, client: ClientSettings, check: SendUrlChecker): Promise<string> {
  const sendUrl = requested ?? client.defaultSendUrl;
  if (sendUrl === undefined) {
    throw new AppError('send_url_required', 'auto_dialog needs a send_url, and this client has no default.', {
      errors: [{ path: '/send_url', code: 'send_url_required', message: 'send_url is required for auto_dialog' }],
    });
  }
  const verdict = await check(sendUrl, client);
  if (!verdict.ok) {
    throw new AppError('send_url_forbidden', 'send_url may not be used as a delivery target.', {
      detail: verdict.reason,
      errors: [{ path: '/send_url', code: 'send_url_forbidden', message: verdict.reason }],
    });
  }
  return sendUrl;
}
