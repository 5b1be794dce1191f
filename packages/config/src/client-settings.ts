import { jsonParseFailureDetail, SIGNATURE_SCHEMES, type SignatureScheme } from '@dialog-relay/contracts';
import { Ajv } from 'ajv';
import { assertUsableClient, type ClientCheckOptions } from './client-checks.js';

/** In a group, reply to a customer only when the bound account is @-mentioned, or always (docs/service-rules.md §6). */
export type GroupPolicy = 'mention' | 'always';

/** One client of the API, from CLIENTS or from the Redis store the admin CLI writes. */
export interface ClientSettings {
  readonly id: string;
  readonly secrets: readonly string[];
  readonly signatureScheme: SignatureScheme;
  readonly webhookSecret: string | undefined;
  readonly defaultSendUrl: string | undefined;
  readonly groupPolicy: GroupPolicy;
  readonly rateLimitPerS: number;
  /** md5 clients may send cmd_dialog only when true (docs/service-rules.md §16); hmac-sha256 clients always may. */
  readonly allowCommands: boolean;
  /** Lets this client's send_urls use loopback and private addresses (never link-local or metadata). */
  readonly allowPrivateSendUrls: boolean;
  /** The client's own knowledge file (knowledge engine); undefined: the default KNOWLEDGE_FILE. */
  readonly knowledgeFile: string | undefined;
}

/** The stored / configured JSON form of a client, snake_case as in docs/service-rules.md §10. */
export interface ClientRecord {
  secret?: string;
  secrets?: string[];
  signature_scheme?: SignatureScheme;
  webhook_secret?: string;
  default_send_url?: string;
  group_policy?: GroupPolicy;
  rate_limit_per_s?: number;
  allow_commands?: boolean;
  allow_private_send_urls?: boolean;
  knowledge_file?: string;
}

const recordSchema = {
  type: 'object',
  properties: {
    secret: { type: 'string', minLength: 1 },
    secrets: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    signature_scheme: { enum: SIGNATURE_SCHEMES },
    webhook_secret: { type: 'string', minLength: 1 },
    default_send_url: { type: 'string', minLength: 1 },
    group_policy: { enum: ['mention', 'always'] },
    rate_limit_per_s: { type: 'number', exclusiveMinimum: 0 },
    allow_commands: { type: 'boolean' },
    allow_private_send_urls: { type: 'boolean' },
    knowledge_file: { type: 'string', minLength: 1 },
  },
  additionalProperties: false,
} as const;

const validateRecord = new Ajv({ allErrors: true }).compile<ClientRecord>(recordSchema);

export const CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Validates one client record; throws an Error that names the client and the problem. */
export function parseClientRecord(id: string, raw: unknown, defaultRateLimitPerS: number): ClientSettings {
  if (!CLIENT_ID_PATTERN.test(id)) throw new Error(`client id "${id}" must be 1-128 characters of A-Z a-z 0-9 . _ -`);
  if (!validateRecord(raw)) {
    const problems = (validateRecord.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    throw new Error(`client "${id}": ${problems.join('; ')}`);
  }
  const secrets = [...(raw.secret === undefined ? [] : [raw.secret]), ...(raw.secrets ?? [])];
  if (secrets.length === 0) throw new Error(`client "${id}": needs "secret" or "secrets"`);
  return Object.freeze({
    id,
    secrets: Object.freeze(secrets),
    signatureScheme: raw.signature_scheme ?? 'hmac-sha256',
    webhookSecret: raw.webhook_secret,
    defaultSendUrl: raw.default_send_url,
    groupPolicy: raw.group_policy ?? 'mention',
    rateLimitPerS: raw.rate_limit_per_s ?? defaultRateLimitPerS,
    allowCommands: raw.allow_commands ?? false,
    allowPrivateSendUrls: raw.allow_private_send_urls ?? false,
    knowledgeFile: raw.knowledge_file,
  });
}

/** The JSON record for a client (what the admin CLI stores). */
export function toClientRecord(settings: ClientSettings): ClientRecord {
  const record: ClientRecord = {
    secrets: [...settings.secrets],
    signature_scheme: settings.signatureScheme,
    group_policy: settings.groupPolicy,
    rate_limit_per_s: settings.rateLimitPerS,
  };
  if (settings.webhookSecret !== undefined) record.webhook_secret = settings.webhookSecret;
  if (settings.defaultSendUrl !== undefined) record.default_send_url = settings.defaultSendUrl;
  if (settings.allowCommands) record.allow_commands = true;
  if (settings.allowPrivateSendUrls) record.allow_private_send_urls = true;
  if (settings.knowledgeFile !== undefined) record.knowledge_file = settings.knowledgeFile;
  return record;
}

/** Parses the CLIENTS variable: a JSON object of client id -> record, each checked with assertUsableClient. */
export function parseClientsJson(
  text: string,
  options: ClientCheckOptions & { defaultRateLimitPerS: number },
): ReadonlyMap<string, ClientSettings> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // the parser's own message quotes the text around the error, which may be a secret
    const detail = jsonParseFailureDetail((error as Error).message);
    throw new Error(detail === undefined ? 'not valid JSON' : `not valid JSON (${detail})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('must be a JSON object of client id -> settings');
  }
  const clients = new Map<string, ClientSettings>();
  for (const [id, raw] of Object.entries(parsed)) {
    const settings = parseClientRecord(id, raw, options.defaultRateLimitPerS);
    assertUsableClient(settings, options);
    clients.set(id, settings);
  }
  return clients;
}
