// Realistic traffic for the benchmark: the knowledge evaluation set's customer messages (English,
// Chinese, Japanese), each request with its own msg_id, signed with hmac-sha256 before the clock runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

export const CLIENT = 'bench';
export const SECRET = 'bench-secret-00001';
export const WEBHOOK_SECRET = 'whsec_YmVuY2gtd2ViaG9vay1zZWNyZXQ=';
export const BOT = 'bench-bot';

/** Every distinct message text of the evaluation files, with its language. */
export function loadMessages(root) {
  const texts = new Map();
  for (const file of ['example-faq.calibration.jsonl', 'example-faq.test.jsonl']) {
    const lines = readFileSync(join(root, 'packages/knowledge-eval/cases', file), 'utf8').split('\n');
    for (const line of lines) {
      if (line.trim() === '') continue;
      const { text, lang } = JSON.parse(line);
      texts.set(text, lang);
    }
  }
  return [...texts].map(([text, lang]) => ({ text, lang }));
}

export const clientsEnv = (receiverBase) =>
  JSON.stringify({
    [CLIENT]: {
      secret: SECRET,
      webhook_secret: WEBHOOK_SECRET,
      rate_limit_per_s: 1_000_000,
      allow_private_send_urls: true,
      default_send_url: `${receiverBase}/hook`,
    },
  });

/** Builds signed request bodies; `customer` picks the conversation, every message gets a fresh msg_id. */
export function createSigner(signRequestBody, messages, run) {
  let n = 0;
  const now = () => Math.floor(Date.now() / 1000);
  return function sign(eventType, { customer, content, sendUrl, fromUserType } = {}) {
    const text = content ?? messages[n % messages.length].text;
    n += 1;
    const info = {
      msg_id: `${run}-${randomUUID()}`,
      from_user_id: `cust-${customer ?? n}`,
      to_user_id: BOT,
      content: text,
      message_type: 1,
      event_type: eventType,
      create_timestamp: now(),
    };
    if (eventType === 'auto_dialog') info.from_user_type = fromUserType ?? 2;
    const body = { client: CLIENT, timestamp: now(), message_info: info };
    if (sendUrl !== undefined) body.send_url = sendUrl;
    return { msgId: info.msg_id, body: JSON.stringify({ ...body, signature: signRequestBody(body, SECRET, 'hmac-sha256') }) };
  };
}

/** The bare Express baseline's request `i` (bare-server.mjs): a small JSON body, not signed, not validated. */
export const bareBody = (i) => ({
  msgId: String(i),
  body: JSON.stringify({
    client: 'bench',
    timestamp: Math.floor(Date.now() / 1000),
    signature: 'x',
    message_info: { content: 'hi', trace: i },
  }),
});
