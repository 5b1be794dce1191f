import { randomBytes } from 'node:crypto';
import { webhookSigningKey } from '@dialog-relay/signing';
import type { DeliveryRequest } from '../src/index.js';

export const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
export const USER_AGENT = 'dialog-relay-test/9.9.9';

/** A signed-delivery request to `url` with a small JSON body; `overrides` win. */
export function deliveryRequest(url: string, overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return {
    url,
    body: JSON.stringify({ type: 'auto_dialog.reply', delivery_id: 'dlv-test', text: 'héllo' }),
    deliveryId: 'dlv-test',
    timestampS: Math.floor(Date.now() / 1000),
    signingKey: webhookSigningKey(SECRET),
    timeoutMs: 5000,
    ...overrides,
  };
}
