import { signRequestBody, SIGNATURE_SCHEMES, type SignatureScheme } from '@dialog-relay/signing';
import { randomUUID } from 'node:crypto';

export interface SignOptions {
  client: string;
  secret: string;
  scheme: string;
  event: string;
  content: string;
  sendUrl: string | undefined;
  from: string;
  to: string;
  url: string;
  nowS: number;
}

/** A signed request body and the curl line that sends it (for integrators' debugging and demos). */
export function signCommand(options: SignOptions): string {
  if (!(SIGNATURE_SCHEMES as readonly string[]).includes(options.scheme)) throw new Error(`--scheme must be one of ${SIGNATURE_SCHEMES.join(', ')}`);
  const info: Record<string, unknown> = {
    msg_id: `cli-${randomUUID().slice(0, 8)}`,
    from_user_id: options.from,
    to_user_id: options.to,
    content: options.content,
    message_type: 1,
    event_type: options.event,
    create_timestamp: options.nowS,
  };
  if (options.event === 'auto_dialog') info['from_user_type'] = 2;
  const body: Record<string, unknown> = { client: options.client, timestamp: options.nowS, message_info: info };
  if (options.sendUrl !== undefined) body['send_url'] = options.sendUrl;
  body['signature'] = signRequestBody(body, options.secret, options.scheme as SignatureScheme);
  const json = JSON.stringify(body).replaceAll("'", "'\\''");
  return `curl -s ${options.url}/custom-im/chat-messages -H 'Content-Type: application/json' -d '${json}'`;
}
