import type { ClientStore } from '@dialog-relay/clients';
import { parseClientRecord, type ClientSettings } from '@dialog-relay/config';

/** `clients list | add <id> <json> | remove <id>`: the clients kept in Redis. Secrets are never printed. */
export async function clientsCommand(store: ClientStore, args: readonly string[], defaultRateLimitPerS: number): Promise<string> {
  const [action, id, json] = args;
  const describe = (c: ClientSettings): string =>
    `${c.id}\tscheme=${c.signatureScheme}\tsecrets=${c.secrets.length}\twebhook_secret=${c.webhookSecret ? 'set' : 'none'}\tgroup_policy=${c.groupPolicy}\trate=${c.rateLimitPerS}/s\tdefault_send_url=${c.defaultSendUrl ?? '-'}`;
  switch (action) {
    case 'list':
      return (await store.list()).map(describe).join('\n') || '(no clients in Redis)';
    case 'add': {
      if (!id || !json) throw new Error('usage: clients add <id> \'{"secret":"…","webhook_secret":"whsec_…"}\'');
      let record: unknown;
      try {
        record = JSON.parse(json);
      } catch {
        throw new Error(`client "${id}": the record is not valid JSON`);
      }
      const settings = parseClientRecord(id, record, defaultRateLimitPerS);
      await store.put(settings);
      return `saved ${describe(settings)}`;
    }
    case 'remove':
      if (!id) throw new Error('usage: clients remove <id>');
      return (await store.remove(id)) ? `removed ${id}` : `no client ${id}`;
    case undefined:
    default:
      throw new Error('usage: clients list | add <id> <json> | remove <id>');
  }
}
