/**
 * Examples of the OpenAPI document. Request examples are signed by the caller's `sign` (the API
 * signs them with the test-vector secret of docs/integrating.md `demo-secret`), and the tests check that every
 * one passes the API's own validation.
 */
type Body = Record<string, unknown>;
const TS = 1_700_000_000;

/** Unsigned request bodies, one per scenario and command (client `demo`). */
export function requestExampleBodies(): Record<string, { summary: string; body: Body }> {
  const info = (extra: Body): Body => ({
    from_user_id: 'customer-1',
    to_user_id: 'bot-1',
    message_type: 1,
    create_timestamp: TS,
    ...extra,
  });
  const command = (content: string): Body => ({
    client: 'demo',
    timestamp: TS,
    message_info: info({ from_user_id: 'bot-1', to_user_id: 'customer-1', content, event_type: 'cmd_dialog' }),
  });
  return {
    assist_dialog: {
      summary: 'assist_dialog: suggest a reply for an agent (the worked example of docs/integrating.md)',
      body: {
        client: 'demo',
        timestamp: TS,
        message_info: {
          msg_id: 'm-1',
          from_user_id: 'u-1',
          to_user_id: 'bot-1',
          content: '你好, what are your opening hours?',
          message_type: 1,
          event_type: 'assist_dialog',
          create_timestamp: TS,
        },
      },
    },
    website_dialog: {
      summary: 'website_dialog: answer a web chat visitor at once',
      body: {
        client: 'demo',
        timestamp: TS,
        message_info: info({
          msg_id: 'w-1',
          from_user_id: 'visitor-1',
          to_user_id: 'site-bot',
          content: 'How long does delivery take?',
          event_type: 'website_dialog',
        }),
      },
    },
    auto_dialog: {
      summary: 'auto_dialog: a customer message; the reply is POSTed to send_url',
      body: {
        client: 'demo',
        timestamp: TS,
        send_url: 'https://hooks.example.com/dialog-relay',
        message_info: info({ msg_id: 'a-1', content: 'I want to return my order', event_type: 'auto_dialog', from_user_type: 2 }),
      },
    },
    auto_dialog_group: {
      summary: 'auto_dialog in a group, mentioning the bound account, quoting an earlier message',
      body: {
        client: 'demo',
        timestamp: TS,
        send_url: 'https://hooks.example.com/dialog-relay',
        message_info: info({
          msg_id: 'a-2',
          group_id: 'g-1',
          group_name: 'VIP customers',
          at_list: ['bot-1'],
          content: 'Is this still in stock?',
          event_type: 'auto_dialog',
          from_user_type: 2,
          message_type: 2,
          quote: { msg_id: 'a-1', message_type: 1 },
        }),
      },
    },
    stop_auto_reply: { summary: 'cmd_dialog: stop auto replies of a conversation', body: command('stop_auto_reply') },
    resume_auto_reply: { summary: 'cmd_dialog: resume auto replies', body: command('resume_auto_reply') },
    auto_reply_status: { summary: 'cmd_dialog: the flag, pending replies and latest deliveries', body: command('auto_reply_status') },
  };
}

const envelope = (code: number, data: Body): Body => ({ code, message: 'ok', request_id: '7f1c2a9e-5d4b-4f8e-9a31-0c6b2d8e4f10', data });
const conversation = 'c_5f4dcc3b5aa765d61d8327deb882cf99';

export const SUCCESS_EXAMPLES: Record<string, { summary: string; value: Body }> = {
  assist_dialog: {
    summary: 'assist_dialog',
    value: envelope(200, {
      conversation_id: conversation,
      msg_id: 'm_3b1f…',
      in_reply_to: ['m-1'],
      content: [{ type: 'text', content: 'We are open Monday to Friday, 9:00–18:00.' }],
      handoff: false,
      sources: ['opening-hours'],
      context_reused: false,
    }),
  },
  website_dialog: {
    summary: 'website_dialog',
    value: envelope(200, {
      conversation_id: conversation,
      msg_id: 'm_8c2d…',
      in_reply_to: ['w-1'],
      content: [{ type: 'text', content: 'Orders placed before 14:00 ship the same day.' }],
      handoff: false,
      sources: ['shipping-time'],
    }),
  },
  stop_auto_reply: {
    summary: 'stop_auto_reply',
    value: envelope(200, { conversation_id: conversation, command: 'stop_auto_reply', auto_reply: 'stopped', cancelled: 1 }),
  },
  resume_auto_reply: {
    summary: 'resume_auto_reply',
    value: envelope(200, { conversation_id: conversation, command: 'resume_auto_reply', auto_reply: 'active' }),
  },
  auto_reply_status: {
    summary: 'auto_reply_status',
    value: envelope(200, {
      conversation_id: conversation,
      command: 'auto_reply_status',
      auto_reply: 'active',
      paused_until: null,
      pending: [{ msg_ids: ['a-3'], state: 'waiting' }],
      deliveries: [
        {
          delivery_id: 'dlv_0193c4d27b1e7a449d2f3e5a6b7c8d9e_s5',
          state: 'delivered',
          in_reply_to: ['a-1'],
          attempts: [
            { attempt: 1, at: '2023-11-14T22:13:21.000Z', status: 503, latency_ms: 41, error: null },
            { attempt: 2, at: '2023-11-14T22:13:22.000Z', status: 200, latency_ms: 38, error: null },
          ],
        },
      ],
    }),
  },
};

export const ACCEPTED_EXAMPLE: Body = envelope(202, { conversation_id: conversation, msg_id: 'a-1', status: 'queued' });

export const ERROR_EXAMPLES: Record<string, { summary: string; value: Body }> = {
  quote_required: {
    summary: 'a rule broken (every problem listed)',
    value: {
      code: 400,
      message: 'A quoted message (message_type 2) needs quote.msg_id and quote.message_type.',
      request_id: 'req-1',
      error: 'quote_required',
      errors: [{ path: '/message_info/quote', code: 'quote_required', message: 'message_info.quote is required when message_type is 2.' }],
    },
  },
  invalid_signature: {
    summary: 'unknown client or wrong signature: detail shows what the server signed',
    value: {
      code: 401,
      message: 'The signature does not match.',
      request_id: 'req-2',
      error: 'invalid_signature',
      detail: 'hmac-sha256 signs: {"client":"demo",…}; md5 signs: {secret}1700000000demo',
    },
  },
  rate_limited: {
    summary: 'over the per-second limit (Retry-After)',
    value: { code: 429, message: 'Too many requests for this client.', request_id: 'req-3', error: 'rate_limited' },
  },
  pending_limit: {
    summary:
      'auto_dialog: the conversation already holds PENDING_MESSAGES_MAX unanswered messages; this one was not accepted (Retry-After)',
    value: {
      code: 429,
      message: 'This conversation already holds 200 messages waiting for their reply; send this one again later.',
      request_id: 'req-3b',
      error: 'pending_limit',
    },
  },
  service_unavailable: {
    summary: 'Redis unreachable (Retry-After)',
    value: { code: 503, message: 'The service is unavailable; try again shortly.', request_id: 'req-4', error: 'service_unavailable' },
  },
};

export const DELIVERY_EXAMPLE: Body = {
  type: 'auto_dialog.reply',
  delivery_id: 'dlv_0193c4d27b1e7a449d2f3e5a6b7c8d9e_s5',
  client: 'demo',
  conversation_id: conversation,
  in_reply_to: ['a-1'],
  handoff: false,
  sources: ['returns-refunds'],
  message_info: {
    msg_id: 'dlv_0193c4d27b1e7a449d2f3e5a6b7c8d9e_s5',
    from_user_id: 'bot-1',
    to_user_id: 'customer-1',
    content: 'You can return your order within 30 days.',
    message_type: 1,
    event_type: 'auto_dialog',
    from_user_type: 4,
    create_timestamp: TS,
  },
};
