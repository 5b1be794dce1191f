import { loadConfig, type Config } from '@dialog-relay/config';
import { createLogger } from '@dialog-relay/logger';
import { createRedisKeys, type RedisKeys } from '@dialog-relay/redis';
import { signRequestBody, type SignatureScheme } from '@dialog-relay/signing';
import { registerApiUnderTest, testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildApi, type Api } from '../../src/build-api.js';
import { createApiServer } from '../../src/http/api-server.js';

export const CLIENTS = {
  shop: { secrets: ['shop-secret-0001', 'previous-secret1'], webhook_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  widget: { secret: 'widget-secret-01', signature_scheme: 'md5' },
  tiny: { secret: 'tiny-secret-0001', rate_limit_per_s: 2 },
  // A loopback default_send_url needs private addresses allowed (start-up refuses it otherwise).
  hub: {
    secret: 'hub-secret-00001',
    default_send_url: 'http://127.0.0.1:9/default',
    group_policy: 'always',
    allow_private_send_urls: true,
  },
} as const;

export interface TestApi {
  url: string;
  server: Server;
  config: Config;
  keys: RedisKeys;
  api: Api;
  close(): Promise<void>;
}

/** The real API on a loopback port, with its own key prefix on the test Redis. */
export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const config = loadConfig({
    ...testRedisEnv(),
    REDIS_PREFIX: uniquePrefix('api'),
    CLIENTS: JSON.stringify(CLIENTS),
    ALLOW_PRIVATE_SEND_URLS: 'true',
    AUTO_REPLY_DEBOUNCE_MS: '0',
    LOG_LEVEL: 'error',
    // Most tests send many bad signatures from 127.0.0.1; the throttle has tests of its own.
    AUTH_FAILURES_PER_CLIENT: '1000000',
    AUTH_FAILURES_PER_ADDRESS: '1000000',
    ...env,
  });
  const logger = createLogger({ level: 'error', service: 'api-test', silent: true });
  const api = await buildApi(config, logger);
  await api.ready(5000);
  const server = createApiServer(api.app, config.ingress.http);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Every answer the tests' fetch gets from it is checked against its OpenAPI document (testkit's openapi-guard).
  const forget = registerApiUnderTest(`http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    config,
    keys: createRedisKeys(config.redisPrefix),
    api,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      forget();
      await api.close();
    },
  };
}

export const nowS = (): number => Math.floor(Date.now() / 1000);

let sequence = 0;
/** A unique msg_id for a test message. */
export const msgId = (label = 'm'): string => `${label}-${process.pid}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

export type Body = Record<string, unknown> & { message_info?: Record<string, unknown> };

/**
 * A valid unsigned body for the scenario; override any member. Each body carries a unique unknown
 * member (`trace`), ignored by the API but covered by the signature, so two bodies built in the
 * same second are never an exact replay of each other.
 */
export function bodyFor(eventType: string, info: Record<string, unknown> = {}, top: Record<string, unknown> = {}): Body {
  const base: Record<string, unknown> = {
    trace: ++sequence,
    from_user_id: 'customer-1',
    to_user_id: 'bot-1',
    content: 'What are your opening hours?',
    message_type: 1,
    event_type: eventType,
    create_timestamp: nowS(),
  };
  if (eventType === 'assist_dialog') base['msg_id'] = msgId('assist');
  if (eventType === 'auto_dialog') base['from_user_type'] = 2;
  return { client: 'shop', timestamp: nowS(), ...top, message_info: { ...base, ...info } };
}

export function sign(body: Body, secret = 'shop-secret-0001', scheme: SignatureScheme = 'hmac-sha256'): Body {
  return { ...body, signature: signRequestBody(body, secret, scheme) };
}

export interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown> & {
    data?: Record<string, unknown>;
    error?: string;
    errors?: { path: string; code: string }[];
    detail?: string;
  };
}

export async function post(baseUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}/custom-im/chat-messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = (await response.json()) as Answer['json'];
  return { status: response.status, headers: response.headers, json };
}
