/**
 * The test vectors of docs/integrating.md ("Worked example" and "Verifying deliveries"), the same values
 * packages/signing checks; computed independently of the code under test.
 */
export const DEMO = {
  client: 'demo',
  secret: 'demo-secret',
  bodyJson:
    '{"client":"demo","timestamp":1700000000,"message_info":{"msg_id":"m-1","from_user_id":"u-1",' +
    '"to_user_id":"bot-1","content":"你好, what are your opening hours?","message_type":1,' +
    '"event_type":"assist_dialog","create_timestamp":1700000000}}',
  jcs:
    '{"client":"demo","message_info":{"content":"你好, what are your opening hours?",' +
    '"create_timestamp":1700000000,"event_type":"assist_dialog","from_user_id":"u-1",' +
    '"message_type":1,"msg_id":"m-1","to_user_id":"bot-1"},"timestamp":1700000000}',
  hmac: '83045600700838d52a3b01f3ac805f3701044a92c2afc5eead5ad444d02b4199',
  md5: 'f884347b66cb9c21fef87ae94b0790d4',
} as const;

/** The Standard Webhooks specification's own example. */
export const SPEC_WEBHOOK = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
} as const;

/** No whsec_ webhook secret: the request secret's UTF-8 bytes are the key. */
export const PLAIN_SECRET_WEBHOOK = {
  secret: 'demo-secret',
  id: 'msg_demo_1',
  timestamp: 1700000000,
  body: '{"ok":true}',
  signature: 'v1,j7Tp2A8mZvDaTpHkuu+APfqw3m6C6gMjjWmTS4tnqNc=',
} as const;

export const specHeaders = (overrides: Record<string, string> = {}): Record<string, string> => ({
  'webhook-id': SPEC_WEBHOOK.id,
  'webhook-timestamp': String(SPEC_WEBHOOK.timestamp),
  'webhook-signature': SPEC_WEBHOOK.signature,
  ...overrides,
});
