import { Cluster, type Redis as SingleRedis } from 'ioredis';
import { slotOf, type Redis, type RedisKeys } from '@dialog-relay/redis';
import type { DeliveryAttempt, DeliveryRecord, DeliveryStore } from '@dialog-relay/replies';
import { output, UsageError, type Output } from '../output.js';
import { parseArgs } from '../parse-args.js';
import { withoutPayload } from './dead-letters.command.js';

const USAGE = 'usage: deliveries list --conversation <id> | --client <id> [--limit N] | show <delivery_id>';
/** Keys looked at, at most, when listing a client's deliveries (an operator's tool, not a hot path). */
const SCAN_BUDGET = 100_000;
/** Keys one SCAN call looks at (about: SCAN's COUNT is the work done per call). */
const SCAN_COUNT = 1000;

export interface DeliveriesDeps {
  deliveries: DeliveryStore;
  redis: Redis;
  keys: RedisKeys;
  /** Keys looked at, at most, by `list --client` (default 100 000). */
  scanBudget?: number;
}

const answer = (body: string | null): string =>
  body === null || body === '' ? '' : ` answer=${JSON.stringify(body.length > 300 ? `${body.slice(0, 300)}…` : body)}`;
const attemptLine = (a: DeliveryAttempt): string =>
  `  #${a.attempt} ${a.at} status=${a.status ?? '-'} ${a.latency_ms}ms ${a.error ?? ''}${answer(a.response_body)}`;
const recordLine = (r: DeliveryRecord): string =>
  `${r.delivery_id}\tstate=${r.state}${r.dead_reason ? `\treason=${r.dead_reason}` : ''}\tconversation=${r.conversation_id}\tclient=${r.client}\tsend_url=${r.send_url}\tin_reply_to=${r.in_reply_to.join(',')}`;

/**
 * `deliveries list --conversation <id> | --client <id> [--limit N]`: the latest deliveries with every
 * attempt and your server's answers; `deliveries show <delivery_id>`: one delivery with the exact body.
 */
export async function deliveriesCommand(deps: DeliveriesDeps, args: readonly string[]): Promise<Output> {
  const [action, ...rest] = args;
  if (action === 'show') {
    const [id] = rest;
    if (!id) throw new UsageError(USAGE);
    const [record, attempts] = await Promise.all([deps.deliveries.get(id), deps.deliveries.attempts(id)]);
    if (!record) return output(`no delivery ${id}`, { delivery: null, error: `no delivery ${id}` }, false);
    const text = [
      recordLine(record),
      `  created ${new Date(record.created_at_ms).toISOString()}, deadline ${new Date(record.deadline_ms).toISOString()}`,
      ...(record.dead_detail ? [`  detail: ${record.dead_detail}`] : []),
      ...attempts.map(attemptLine),
      `  body: ${record.payload || '(never produced)'}`,
    ].join('\n');
    return output(text, { delivery: { ...withoutPayload(record), payload: record.payload, attempts } });
  }
  if (action !== 'list') throw new UsageError(USAGE);
  const { values } = parseArgs({
    args: [...rest],
    options: { conversation: { type: 'string' }, client: { type: 'string' }, limit: { type: 'string', default: '20' } },
    strict: true,
  });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be 1-1000');
  if ((values.conversation === undefined) === (values.client === undefined)) throw new UsageError(USAGE);
  const scan =
    values.conversation !== undefined
      ? { ids: await deps.redis.lrange(deps.keys.conversationDeliveries(values.conversation), 0, limit - 1), complete: true }
      : await clientDeliveryIds(deps, values.client ?? '', limit);
  const { ids } = scan;
  const found = await Promise.all(
    ids.map(async (id) => ({ record: await deps.deliveries.get(id), attempts: await deps.deliveries.attempts(id) })),
  );
  const shown = found.filter((f): f is { record: DeliveryRecord; attempts: DeliveryAttempt[] } => f.record !== undefined);
  const json = {
    deliveries: shown.map(({ record, attempts }) => ({ ...withoutPayload(record), attempts })),
    ...(scan.complete ? {} : { scan_complete: false }),
  };
  const incomplete = scan.complete ? [] : [`(scan stopped after ${deps.scanBudget ?? SCAN_BUDGET} keys: older deliveries may be missing)`];
  if (shown.length === 0) return output(['(no deliveries)', ...incomplete].join('\n'), json);
  return output(
    [...shown.map(({ record, attempts }) => [recordLine(record), ...attempts.map(attemptLine)].join('\n')), ...incomplete].join('\n'),
    json,
  );
}

/**
 * A client's newest deliveries: delivery records are not indexed by client, so they are scanned.
 * One pass over each master that holds a shard (a shard is one hash slot, so one master of a
 * cluster), matching every shard's records at once; the budget counts the keys looked at.
 */
async function clientDeliveryIds(deps: DeliveriesDeps, client: string, limit: number): Promise<{ ids: string[]; complete: boolean }> {
  const { keys } = deps;
  const tags = new Set(keys.shardTags);
  // `<prefix>{<tag>}:delivery:<id>` (REDIS_PREFIX holds no glob characters: config allows A-Z a-z 0-9 : _ . -).
  const record = new RegExp(`^${keys.prefix.replace(/[.]/g, '\\.')}\\{([^}]+)\\}:delivery:([^:]+)$`);
  const pattern = `${keys.prefix}{*}:delivery:*`;
  const budget = deps.scanBudget ?? SCAN_BUDGET;
  const ids: string[] = [];
  let looked = 0;
  let complete = true;
  for (const node of mastersHoldingShards(deps)) {
    let cursor = '0';
    do {
      if (looked >= budget) {
        complete = false;
        break;
      }
      const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
      cursor = next;
      looked += SCAN_COUNT;
      const found = batch
        .map((key) => record.exec(key))
        .filter((m): m is RegExpExecArray => m !== null && tags.has(m[1] ?? ''))
        .map((m) => m[2] ?? '');
      const owners = await Promise.all(found.map(async (id) => ({ id, client: await deps.redis.hget(keys.delivery(id), 'client') })));
      ids.push(...owners.filter((o) => o.client === client).map((o) => o.id));
    } while (cursor !== '0');
  }
  // dlv_<32 hex of a UUIDv7>_s<shard>: the fixed-length time-ordered part comes first, so the lexical order is the creation order.
  return { ids: ids.sort().reverse().slice(0, limit), complete };
}

/** The one server of a single Redis or Sentinel; on a cluster, the masters that serve a shard's slot. */
function mastersHoldingShards(deps: DeliveriesDeps): Pick<SingleRedis, 'scan'>[] {
  const { redis, keys } = deps;
  if (!(redis instanceof Cluster)) return [redis];
  const owners = new Set(
    keys.shardTags.map((tag) => redis.slots[slotOf(`{${tag}}`)]?.[0]).filter((node): node is string => node !== undefined),
  );
  return redis.nodes('master').filter((node) => owners.has(`${node.options.host}:${node.options.port}`));
}
