/**
 * Members that are never written to a log line, at any depth and in any letter case
 * (docs/service-rules.md §2: a `secret` member is never logged). Written in lower case.
 */
export const REDACTED_KEYS: ReadonlySet<string> = new Set([
  'secret',
  'secrets',
  'signature',
  'webhook_secret',
  'webhooksecret',
  'api_key',
  'apikey',
  'authorization',
  'password',
  'token',
  'admintoken',
  'admin_token',
  'webhook-signature',
]);

const MAX_DEPTH = 6;

/**
 * A copy of `value` with redacted members replaced by "[redacted]", ready for `JSON.stringify`: plain
 * data of bounded depth (no cycle survives), errors as {name, message}, a BigInt as its digits (as
 * logform's json wrote it).
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (depth >= MAX_DEPTH) return '[truncated]';
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = REDACTED_KEYS.has(key.toLowerCase()) ? '[redacted]' : redact(item, depth + 1);
  }
  return out;
}
