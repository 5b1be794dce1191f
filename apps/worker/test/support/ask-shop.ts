import { signRequestBody } from '@dialog-relay/signing';

/** The request secret of client `shop`, the one client of the worker's end-to-end systems. */
export const SHOP_SECRET = 'shop-secret-0001';

/** Signs `body` as client shop (hmac-sha256) and posts it to the API's message endpoint at `apiUrl`. */
export function postAsShop(apiUrl: string, body: Record<string, unknown>): Promise<Response> {
  body['signature'] = signRequestBody(body, SHOP_SECRET, 'hmac-sha256');
  return fetch(`${apiUrl}/custom-im/chat-messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A customer of shop asks "When are you open?" (auto_dialog, signed); the reply is to go to `sendUrl`. */
export function askWhenOpen(apiUrl: string, question: { msgId: string; customer: string; sendUrl: string }): Promise<Response> {
  const now = Math.floor(Date.now() / 1000);
  return postAsShop(apiUrl, {
    client: 'shop',
    timestamp: now,
    send_url: question.sendUrl,
    message_info: {
      msg_id: question.msgId,
      from_user_id: question.customer,
      to_user_id: 'bound',
      content: 'When are you open?',
      message_type: 1,
      event_type: 'auto_dialog',
      from_user_type: 2,
      create_timestamp: now,
    },
  });
}
