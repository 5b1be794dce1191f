import { signDelivery, type DeliveryPayload } from '@dialog-relay/sdk';
import { randomUUID } from 'node:crypto';
import { output, UsageError, type Output } from '../output.js';

export interface SendTestOptions {
  url: string;
  secret: string;
  client: string;
  /** Unix seconds to sign with (default now): an old one tests the receiver's tolerance. */
  atS: number;
  timeoutMs: number;
}

/** A test delivery shaped like a real reply. */
export function testPayload(client: string, atS: number): DeliveryPayload {
  const id = `dlv_test_${randomUUID()}`;
  return {
    type: 'auto_dialog.reply',
    delivery_id: id,
    client,
    conversation_id: 'c_test',
    in_reply_to: ['test-message-1'],
    handoff: false,
    sources: [],
    message_info: {
      msg_id: id,
      from_user_id: 'bound-account',
      to_user_id: 'customer-1',
      content: 'This is a test delivery from dialog-relay.',
      message_type: 1,
      event_type: 'auto_dialog',
      from_user_type: 4,
      create_timestamp: atS,
    },
  };
}

/**
 * `send-test URL`: POSTs one signed test delivery (Standard Webhooks headers, as the worker signs
 * them) and reports the receiver's answer; succeeds only on a 2xx. Redirects are not followed.
 */
export async function sendTestCommand(options: SendTestOptions): Promise<Output> {
  let target: URL;
  try {
    target = new URL(options.url);
  } catch {
    throw new UsageError(`send-test: not a URL: ${options.url}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new UsageError('send-test: the URL must be http(s)');
  const payload = testPayload(options.client, options.atS);
  const body = JSON.stringify(payload);
  const headers = signDelivery({ id: payload.delivery_id, timestamp: options.atS, body, secret: options.secret });
  const started = Date.now();
  let response: Response;
  try {
    response = await fetch(target, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'dialog-relay-cli/send-test' },
      body,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return output(
      `✘ ${payload.delivery_id}: no answer from ${target.toString()}: ${message}`,
      { delivery_id: payload.delivery_id, status: null, ok: false, error: message },
      false,
    );
  }
  const answer = (await response.text()).slice(0, 4096);
  const ok = response.status >= 200 && response.status < 300;
  const latencyMs = Date.now() - started;
  const shown = answer === '' ? '' : ` answer=${JSON.stringify(answer.length > 300 ? `${answer.slice(0, 300)}…` : answer)}`;
  return output(
    `${ok ? '✔' : '✘'} ${payload.delivery_id}: ${response.status} in ${latencyMs} ms${shown}`,
    { delivery_id: payload.delivery_id, status: response.status, ok, answer },
    ok,
  );
}
