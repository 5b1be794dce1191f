import { checkSendUrlStatically } from '@dialog-relay/net-guard';
import { webhookSecretProblem } from '@dialog-relay/signing';
import type { ClientSettings } from './client-settings.js';

/** docs/service-rules.md §16: shorter secrets are refused at start-up (CLIENTS) and by the CLI. */
export const MIN_SECRET_CHARS = 16;

/** A per-client rate limit counts whole requests in one-second windows: 1 to this many. */
export const MAX_RATE_LIMIT_PER_S = 1_000_000;

export interface ClientCheckOptions {
  /** ALLOW_PRIVATE_SEND_URLS: loopback and private default_send_urls are allowed for every client. */
  allowPrivateSendUrls: boolean;
}

/** Throws an Error naming the client when one of its secrets is shorter than MIN_SECRET_CHARS. */
function assertStrongSecrets(settings: ClientSettings): void {
  const short = settings.secrets.filter((secret) => [...secret].length < MIN_SECRET_CHARS).length;
  if (short > 0) {
    throw new Error(
      `client "${settings.id}": ${short === 1 ? 'a secret is' : `${short} secrets are`} shorter than ${MIN_SECRET_CHARS} characters; use a long random secret (e.g. openssl rand -hex 24)`,
    );
  }
}

function rateLimitProblem(rate: number): string | undefined {
  if (Number.isInteger(rate) && rate >= 1 && rate <= MAX_RATE_LIMIT_PER_S) return undefined;
  return `rate_limit_per_s is ${rate}; it must be a whole number from 1 to ${MAX_RATE_LIMIT_PER_S} (requests are counted in one-second windows: a fraction acts as the whole number below it, and below 1 every request would be refused)`;
}

/**
 * The send_url checks that need no DNS (net-guard), as the API applies them to a request's send_url;
 * a host name is resolved and checked per request. The URL itself is never quoted (it may carry a token).
 */
function defaultSendUrlProblem(url: string, settings: ClientSettings, options: ClientCheckOptions): string | undefined {
  const allowPrivate = options.allowPrivateSendUrls || settings.allowPrivateSendUrls;
  const verdict = checkSendUrlStatically(url, { allowPrivate });
  if (verdict.ok) return undefined;
  const problem = verdict.reason.replace(/^send_url /, 'default_send_url ');
  const openable = !allowPrivate && checkSendUrlStatically(url, { allowPrivate: true }).ok;
  return openable
    ? `${problem}; ALLOW_PRIVATE_SEND_URLS=true, or "allow_private_send_urls": true for this client, allows loopback and private addresses`
    : problem;
}

/**
 * Refuses a client that could never be served as configured (docs/service-rules.md §10, §16): short
 * secrets, a webhook_secret that cannot sign deliveries, a rate limit below one request a second, a
 * default_send_url that every auto_dialog relying on it would have refused. Applied to CLIENTS at
 * start-up and by `clients add` before it stores a client; throws an Error naming the client and
 * every problem, never quoting a secret.
 */
export function assertUsableClient(settings: ClientSettings, options: ClientCheckOptions): void {
  assertStrongSecrets(settings);
  const webhook = settings.webhookSecret === undefined ? undefined : webhookSecretProblem(settings.webhookSecret);
  const problems = [
    webhook === undefined ? undefined : `webhook_secret ${webhook}`,
    rateLimitProblem(settings.rateLimitPerS),
    settings.defaultSendUrl === undefined ? undefined : defaultSendUrlProblem(settings.defaultSendUrl, settings, options),
  ].filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0) throw new Error(`client "${settings.id}": ${problems.join('; ')}`);
}
