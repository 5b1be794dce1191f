import type { ClientSettings } from '@dialog-relay/config';
import { AppError, type EventType } from '@dialog-relay/contracts';

/**
 * docs/service-rules.md §16: an md5 signature covers only secret, timestamp and client, so one captured
 * signature authorizes any body for the whole timestamp window. Such a client therefore cannot
 * choose where replies go (a send_url must equal its default_send_url) and may send cmd_dialog
 * only when the operator set allow_commands.
 */
export function enforceMd5Reach(client: ClientSettings, eventType: EventType, requestedSendUrl: string | undefined): void {
  if (client.signatureScheme !== 'md5') return;
  if (eventType === 'cmd_dialog' && !client.allowCommands) {
    throw new AppError(
      'command_not_allowed',
      'This client signs with md5, which does not protect the body: cmd_dialog is not allowed for it.',
      {
        detail: 'Ask the operator for allow_commands, or sign with hmac-sha256.',
      },
    );
  }
  if (eventType === 'auto_dialog' && requestedSendUrl !== undefined && requestedSendUrl !== client.defaultSendUrl) {
    const reason =
      client.defaultSendUrl === undefined
        ? 'an md5 client cannot choose a send_url; the operator sets its default_send_url'
        : "an md5 client's send_url must equal its default_send_url (or be left out)";
    throw new AppError('send_url_forbidden', 'send_url may not be used as a delivery target.', {
      detail: reason,
      errors: [{ path: '/send_url', code: 'send_url_forbidden', message: reason }],
    });
  }
}
