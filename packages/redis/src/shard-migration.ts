import type { RedisKeys } from './redis-keys.js';

/**
 * Where the keys of one layout go in another (docs/design/scaling.md "Changing QUEUE_SHARDS"): a
 * conversation's shard, so the hash tag of its keys, depends on QUEUE_SHARDS. What lasts is moved:
 * stop and pause flags, generations, contexts, delivery lists and records, the dead-letter index and
 * the dedupe markers of msg_ids. Replies still on
 * their way (pending messages, a turn's batch, an attempt in flight) block the move: drain first.
 */
/** The layout the keys were written with: the prefix and the hash tags of its shards. */
export interface KeySource {
  readonly prefix: string;
  readonly tags: ReadonlySet<string>;
}

export type KeyMove =
  /** The same value under another name (DUMP / RESTORE, the expiry kept). */
  | { readonly kind: 'move'; readonly to: string }
  /** A shard's dead-letter index: each member goes to the index of its delivery's new shard. */
  | { readonly kind: 'dead-letters' }
  /** Derived or short-lived (debounce times, rate windows, replay markers): deleted. */
  | { readonly kind: 'drop' }
  /** A reply still on its way: moving now would lose it. */
  | { readonly kind: 'blocks'; readonly reason: string }
  /** BullMQ's own keys: the drained queue is removed as a whole. */
  | { readonly kind: 'queue' }
  /** Not of this source layout (another layout's key, the client table, metadata): left alone. */
  | { readonly kind: 'keep' };

/** The part of a key after the prefix and its `{tag}:`, or undefined when the key is not of the source. */
function restOf(key: string, source: KeySource): string | undefined {
  if (!key.startsWith(source.prefix)) return undefined;
  const after = key.slice(source.prefix.length);
  const tagged = /^\{([^}]+)\}:(.*)$/.exec(after);
  return tagged && source.tags.has(tagged[1] ?? '') ? tagged[2] : undefined;
}

export function planKeyMove(key: string, source: KeySource, target: RedisKeys): KeyMove {
  const rest = restOf(key, source);
  if (rest === undefined) return { kind: 'keep' };
  const move = (to: string): KeyMove => ({ kind: 'move', to });
  let m: RegExpExecArray | null;
  if ((m = /^stop:(.+)$/.exec(rest))) return move(target.autoReplyStopped(m[1]!));
  if ((m = /^pause:(.+)$/.exec(rest))) return move(target.pausedUntil(m[1]!));
  if ((m = /^gen:(.+)$/.exec(rest))) return move(target.replyGeneration(m[1]!));
  if ((m = /^deliveries:(.+)$/.exec(rest))) return move(target.conversationDeliveries(m[1]!));
  if ((m = /^ctx:(.+):order$/.exec(rest))) return move(target.contextOrder(m[1]!));
  if ((m = /^ctx:(.+):msgs$/.exec(rest))) return move(target.contextMessages(m[1]!));
  if ((m = /^pending:(.+):msg:([^:]+)$/.exec(rest))) return move(target.scheduledMessage(m[1]!, decodeURIComponent(m[2]!)));
  if (/^pending:.+:(at|oldest)$/.test(rest)) return { kind: 'drop' };
  if (/^pending:/.test(rest)) return { kind: 'blocks', reason: 'messages waiting for their reply' };
  if (/^batch:/.test(rest)) return { kind: 'blocks', reason: 'a reply being produced or delivered' };
  if (/^attempts:/.test(rest)) return { kind: 'blocks', reason: 'a delivery attempt in flight' };
  if ((m = /^delivery:([^:]+):attempts$/.exec(rest))) return move(target.deliveryAttempts(m[1]!));
  if ((m = /^delivery:([^:]+)$/.exec(rest))) return move(target.delivery(m[1]!));
  if (rest === 'dead-letters') return { kind: 'dead-letters' };
  if (/^bull:/.test(rest) || rest === 'bull') return { kind: 'queue' };
  return { kind: 'keep' };
}
