import type { ClientStore } from '@dialog-relay/clients';
import { assertUsableClient, parseClientRecord, type ClientCheckOptions, type ClientSettings } from '@dialog-relay/config';
import { output, UsageError, type Output } from '../output.js';

/**
 * `clients list | add <id> <json> | remove <id>`: the clients kept in Redis. Secrets are never printed.
 * `add` refuses what start-up refuses in CLIENTS (assertUsableClient), with the CLI's own
 * ALLOW_PRIVATE_SEND_URLS: the only way clients get into Redis.
 */
export async function clientsCommand(store: ClientStore, args: readonly string[], options: ClientCheckOptions & { defaultRateLimitPerS: number }): Promise<Output> {
  const [action, id, json] = args;
  const describe = (c: ClientSettings): string =>
    `${c.id}\tscheme=${c.signatureScheme}\tsecrets=${c.secrets.length}\twebhook_secret=${c.webhookSecret ? 'set' : 'none'}\tgroup_policy=${c.groupPolicy}\trate=${c.rateLimitPerS}/s\tdefault_send_url=${c.defaultSendUrl ?? '-'}`;
  /** A client as scripts see it: never a secret. */
  const view = (c: ClientSettings) => ({
    id: c.id, signature_scheme: c.signatureScheme, secrets: c.secrets.length, webhook_secret: c.webhookSecret !== undefined,
    group_policy: c.groupPolicy, rate_limit_per_s: c.rateLimitPerS, default_send_url: c.defaultSendUrl ?? null,
  });
  switch (action) {
    case 'list': {
      const clients = await store.list();
      return output(clients.map(describe).join('\n') || '(no clients in Redis)', { clients: clients.map(view) });
    }
    case 'add': {
      if (!id || !json) throw new UsageError('usage: clients add <id> (\'{"secret":"…","webhook_secret":"whsec_…"}\' | --record-stdin | env DIALOG_RELAY_CLIENT_RECORD)');
      let record: unknown;
      try {
        record = JSON.parse(json);
      } catch {
        throw new Error(`client "${id}": the record is not valid JSON`);
      }
      const settings = parseClientRecord(id, record, options.defaultRateLimitPerS);
      assertUsableClient(settings, options);
      await store.put(settings);
      return output(`saved ${describe(settings)}`, { saved: view(settings) });
    }
    case 'remove':
      if (!id) throw new UsageError('usage: clients remove <id>');
      return (await store.remove(id)) ? output(`removed ${id}`, { removed: id }) : output(`no client ${id}`, { removed: null, error: `no client ${id}` }, false);
    case undefined:
    default:
      throw new UsageError('usage: clients list | add <id> <json> | remove <id>');
  }
}
