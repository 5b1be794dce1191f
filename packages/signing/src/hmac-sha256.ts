import { hash } from 'node:crypto';

/** SHA-256's block and digest sizes in bytes. */
const BLOCK = 64;
const DIGEST = 32;
const INNER_PAD = 0x36;
const OUTER_PAD = 0x5c;

/** A key prepared for hmacSha256: its two padded blocks (RFC 2104), made once and never changed. */
export interface HmacSha256Key {
  /** The key XOR 0x36, one block. */
  readonly inner: Buffer;
  /** The key XOR 0x5c, one block. */
  readonly outer: Buffer;
}

/**
 * Prepares a key: the UTF-8 bytes of a string, or a copy of the bytes given; a key longer than a
 * block is hashed first, as RFC 2104 says.
 */
export function hmacSha256Key(key: string | Uint8Array): HmacSha256Key {
  let bytes: Uint8Array = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  if (bytes.length > BLOCK) bytes = hash('sha256', bytes, 'buffer');
  const inner = Buffer.alloc(BLOCK, INNER_PAD);
  const outer = Buffer.alloc(BLOCK, OUTER_PAD);
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    inner[i] = INNER_PAD ^ byte;
    outer[i] = OUTER_PAD ^ byte;
  }
  return Object.freeze({ inner, outer });
}

/**
 * HMAC-SHA256 of a message (a string as UTF-8) under a prepared key: SHA-256 of the outer block and
 * SHA-256 of the inner block and the message, each through Node's one-shot `crypto.hash`.
 *
 * `createHmac` gives the same bytes (a test holds the two equal over generated keys and messages, and
 * RFC 4231's vectors) but sets up an OpenSSL MAC context on every call: in the API under the bench's
 * traffic 7.4 µs a request against 5.1 this way, and 34-44 against 22-27 µs when requests come one at a
 * time, 500 a second, through cold caches (docs/design/performance-log.md, seventeenth session).
 */
export function hmacSha256(key: HmacSha256Key, message: string | Uint8Array, encoding: 'hex' | 'base64'): string {
  const length = typeof message === 'string' ? Buffer.byteLength(message, 'utf8') : message.length;
  const first = Buffer.allocUnsafe(BLOCK + length);
  key.inner.copy(first, 0);
  if (typeof message === 'string') first.write(message, BLOCK, 'utf8');
  else first.set(message, BLOCK);
  const second = Buffer.allocUnsafe(BLOCK + DIGEST);
  key.outer.copy(second, 0);
  // The inner digest as a one-byte string ('binary' is latin1) written into the pooled block: a digest asked for as a
  // Buffer gets a backing store of its own from the native side, about 1-2 µs more a call
  // (docs/design/performance-log.md, nineteenth session).
  second.write(hash('sha256', first, 'binary'), BLOCK, DIGEST, 'latin1');
  return hash('sha256', second, encoding);
}
