import { SIGNATURE_SCHEMES, type SignatureScheme } from '@dialog-relay/contracts';
import { signRequestBody } from '@dialog-relay/signing';
import { randomUUID } from 'node:crypto';
import { output, UsageError, type Output } from '../output.js';

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
  /** The message's msg_id (default: a fresh cli-… id). */
  msgId?: string | undefined;
  /** Send the message in this group (group_id). */
  group?: string | undefined;
}

/** The signed request body and the curl line that sends it. */
export function signedRequest(options: SignOptions): { body: Record<string, unknown>; curl: string } {
  if (!(SIGNATURE_SCHEMES as readonly string[]).includes(options.scheme))
    throw new UsageError(`--scheme must be one of ${SIGNATURE_SCHEMES.join(', ')}`);
  const info: Record<string, unknown> = {
    msg_id: options.msgId ?? `cli-${randomUUID().slice(0, 8)}`,
    ...(options.group === undefined ? {} : { group_id: options.group }),
    from_user_id: options.from,
    to_user_id: options.to,
    content: options.content,
    message_type: 1,
    event_type: options.event,
    create_timestamp: options.nowS,
  };
  if (options.event === 'auto_dialog') {
    info['from_user_type'] = 2;
    // In a group the bound account (to_user_id) must be mentioned to be answered.
    if (options.group !== undefined) info['at_list'] = [options.to];
  }
  const body: Record<string, unknown> = { client: options.client, timestamp: options.nowS, message_info: info };
  if (options.sendUrl !== undefined) body['send_url'] = options.sendUrl;
  body['signature'] = signRequestBody(body, options.secret, options.scheme as SignatureScheme);
  return {
    body,
    curl: `curl -s ${shellQuoted(`${options.url.replace(/\/+$/, '')}/custom-im/chat-messages`)} -H 'Content-Type: application/json' -d ${shellQuoted(JSON.stringify(body))}`,
  };
}

/** One shell word, whatever it holds: single-quoted, each ' written as '\''. */
const shellQuoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** A signed request body and the curl line that sends it (for integrators' debugging and demos). */
export function signCommand(options: SignOptions): string {
  return signedRequest(options).curl;
}

export function signOutput(options: SignOptions): Output {
  const { body, curl } = signedRequest(options);
  return output(curl, { body, curl });
}
