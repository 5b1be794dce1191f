import canonicalize from 'canonicalize';

/** Deeper than any body the API accepts (docs/service-rules.md §16): past it the general path decides. */
const MAX_FAST_DEPTH = 64;

/** A value the fast path does not handle (toJSON, undefined, symbols, bigints, cycles): the library decides. */
class NotPlainJson extends Error {}

/** ES2024's String.prototype.isWellFormed (Node ≥ 20; the project's TypeScript lib is ES2023). */
const wellFormed = (value: string): boolean => (value as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * The RFC 8785 (JCS) form of a plain JSON value: what `canonicalize` gives for the values JSON.parse
 * produces, in one pass with no copy (`skipKey` at the top level is left out). Strings are checked for
 * lone surrogates natively (isWellFormed) instead of character by character, and serialised by
 * JSON.stringify, whose escaping and number form (ECMAScript's, as RFC 8785 requires) JCS shares.
 */
function fast(value: unknown, depth: number, skipKey: string | undefined): string {
  switch (typeof value) {
    case 'string':
      if (!wellFormed(value)) throw new Error('Lone surrogate is not allowed');
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error(Number.isNaN(value) ? 'NaN is not allowed' : 'Infinity is not allowed');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= MAX_FAST_DEPTH) throw new NotPlainJson();
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + fast(value[i], depth + 1, undefined);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      if (typeof record['toJSON'] === 'function') throw new NotPlainJson();
      // Default sort compares UTF-16 code units, as RFC 8785 §3.2.3 orders keys.
      const keys = Object.keys(record).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        if (key === skipKey) continue;
        const member = record[key];
        if (member === undefined) throw new NotPlainJson();
        out += `${first ? '' : ','}${fast(key, depth + 1, undefined)}:${fast(member, depth + 1, undefined)}`;
        first = false;
      }
      return `${out}}`;
    }
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      throw new NotPlainJson();
  }
}

/**
 * RFC 8785 canonical form of `body` without its `skipKey` member (the signature). Throws like
 * `canonicalize` for what JCS refuses (lone surrogates, non-finite numbers, cycles).
 */
export function canonicalJson(body: Readonly<Record<string, unknown>>, skipKey: string): string {
  try {
    return fast(body, 0, skipKey);
  } catch (error) {
    if (!(error instanceof NotPlainJson)) throw error;
    const canonical = canonicalize(Object.fromEntries(Object.entries(body).filter(([key]) => key !== skipKey)));
    if (canonical === undefined) throw new Error('request body cannot be canonicalized (RFC 8785)');
    return canonical;
  }
}
