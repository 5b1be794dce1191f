import { hash } from 'node:crypto';

/** The parts of a message that decide which conversation it belongs to. */
export interface ConversationParties {
  group_id?: string;
  from_user_id?: string;
  to_user_id?: string;
}

/**
 * The stable, opaque id of a conversation: `client` + the group when `group_id` is non-empty,
 * else `client` + the unordered pair {from_user_id, to_user_id} (a missing side counts as '').
 * The parts are JSON-encoded (unambiguous, tagged 'g' or 'p' so groups and pairs never collide),
 * hashed with SHA-256 and the first 16 bytes written as base64url: `c_` + 22 characters, safe in
 * Redis keys and URLs.
 */
export function conversationIdOf(client: string, m: ConversationParties): string {
  const groupId = m.group_id ?? '';
  let parts: string[];
  if (groupId !== '') {
    parts = ['g', client, groupId];
  } else {
    const from = m.from_user_id ?? '';
    const to = m.to_user_id ?? '';
    parts = from <= to ? ['p', client, from, to] : ['p', client, to, from];
  }
  // the one-shot hash: in the API under the bench's traffic 2.7 µs a request against 4.2 for createHash
  // (8-9 against 16-20 µs when requests come one at a time; docs/design/performance-log.md, seventeenth session);
  // the digest as a one-byte string ('binary' is latin1) copied into a pooled Buffer, not a Buffer with a backing store of
  // its own (2.1-3.0 → 1.0-1.5 µs, nineteenth session)
  return 'c_' + Buffer.from(hash('sha256', JSON.stringify(parts), 'binary'), 'latin1').toString('base64url', 0, 16);
}
