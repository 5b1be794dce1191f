import type { ClientStore } from '@dialog-relay/clients';
import { assertUsableClient, parseClientRecord, type ClientCheckOptions, type ClientSettings } from '@dialog-relay/config';
import { output, UsageError, type Output } from '../output.js';

/** The ids of the running `npm start`'s CLIENTS, comma-separated (put there by `npm run cli` from its state file). */
export const SERVICE_CLIENTS_ENV = 'DIALOG_RELAY_SERVICE_CLIENTS';

/**
 * The client ids the service has in its CLIENTS variable, as far as the CLI can know: the CLIENTS it
 * reads itself (the same configuration as the service's where both run with one environment) and
 * the ids a running `npm start` of the checkout runs with.
 */
export function serviceEnvClientIds(clients: ReadonlyMap<string, ClientSettings>, env: NodeJS.ProcessEnv): ReadonlySet<string> {
  const fromService = (env[SERVICE_CLIENTS_ENV] ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  return new Set([...clients.keys(), ...fromService]);
}

/**
 * The service's registry asks CLIENTS first and reads the store only for ids CLIENTS lacks: a stored
 * client whose id CLIENTS also defines is never used, and removing it leaves the id working.
 */
function shadowWarning(id: string, action: 'add' | 'remove'): string {
  const head = `warning: client "${id}" is also defined in the CLIENTS variable of the service, which wins over a client stored in Redis`;
  return action === 'add'
    ? `${head}: the service uses that one, and this stored record has no effect while CLIENTS defines "${id}".`
    : `${head}: "${id}" is still accepted, with the settings CLIENTS gives it.`;
}

/**
 * `clients list | add <id> <json> | remove <id>`: the clients kept in Redis. Secrets are never printed.
 * `add` refuses what start-up refuses in CLIENTS (assertUsableClient), with the CLI's own
 * ALLOW_PRIVATE_SEND_URLS: the only way clients get into Redis.
 */
export async function clientsCommand(
  store: ClientStore,
  args: readonly string[],
  options: ClientCheckOptions & { defaultRateLimitPerS: number; envClientIds?: ReadonlySet<string> },
): Promise<Output> {
  const [action, id, json] = args;
  const warning =
    (action === 'add' || action === 'remove') && id !== undefined && options.envClientIds?.has(id) ? shadowWarning(id, action) : undefined;
  const warned = (result: Output): Output =>
    warning === undefined ? result : { ...result, warning, json: { ...(result.json as object), warning } };
  const describe = (c: ClientSettings): string =>
    `${c.id}\tscheme=${c.signatureScheme}\tsecrets=${c.secrets.length}\twebhook_secret=${c.webhookSecret ? 'set' : 'none'}\tgroup_policy=${c.groupPolicy}\trate=${c.rateLimitPerS}/s\tdefault_send_url=${c.defaultSendUrl ?? '-'}`;
  /** A client as scripts see it: never a secret. */
  const view = (c: ClientSettings) => ({
    id: c.id,
    signature_scheme: c.signatureScheme,
    secrets: c.secrets.length,
    webhook_secret: c.webhookSecret !== undefined,
    group_policy: c.groupPolicy,
    rate_limit_per_s: c.rateLimitPerS,
    default_send_url: c.defaultSendUrl ?? null,
  });
  switch (action) {
    case 'list': {
      const clients = await store.list();
      return output(clients.map(describe).join('\n') || '(no clients in Redis)', { clients: clients.map(view) });
    }
    case 'add': {
      if (!id || !json)
        throw new UsageError(
          'usage: clients add <id> (\'{"secret":"…","webhook_secret":"whsec_…"}\' | --record-stdin | env DIALOG_RELAY_CLIENT_RECORD)',
        );
      let record: unknown;
      try {
        record = JSON.parse(json);
      } catch {
        throw new Error(`client "${id}": the record is not valid JSON`);
      }
      const settings = parseClientRecord(id, record, options.defaultRateLimitPerS);
      assertUsableClient(settings, options);
      await store.put(settings);
      return warned(output(`saved ${describe(settings)}`, { saved: view(settings) }));
    }
    case 'remove':
      if (!id) throw new UsageError('usage: clients remove <id>');
      return warned(
        (await store.remove(id))
          ? output(`removed ${id}`, { removed: id })
          : output(`no client ${id}`, { removed: null, error: `no client ${id}` }, false),
      );
    case undefined:
    default:
      throw new UsageError('usage: clients list | add <id> <json> | remove <id>');
  }
}
