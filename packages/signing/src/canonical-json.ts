/**
 * RFC 8785 (JCS) canonical JSON of a value: members sorted by their names' UTF-16 code units, no
 * whitespace, strings and numbers as ECMAScript's JSON.stringify writes them. A value JCS cannot
 * represent throws: a number that is not finite, a string (or member name) with a lone surrogate, a
 * circular reference.
 *
 * Every signed request canonicalizes its body, so this is written for that one job. It gives the
 * `canonicalize` package's result for every JSON value (a test holds the two equal over generated
 * bodies, and canonicalize stays the reference there) at about half its CPU and a fraction of its
 * garbage: canonicalize makes a Set for every member name, an array per object and array, and a
 * string per member (docs/design/performance-log.md, fifteenth session). Where a JavaScript value
 * is not JSON, it follows JSON.stringify, which is what goes on the wire: a function, a symbol or
 * undefined is left out of an object and written as null in an array, a hole as null, toJSON is used.
 *
 * `omit`: a member of the outermost object left out (the request's `signature`).
 */
export function canonicalJson(value: unknown, omit?: string): string | undefined {
  return write(value, undefined, omit);
}

function write(value: unknown, seen: Set<object> | undefined, omit?: string): string | undefined {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(Number.isNaN(value) ? 'NaN is not allowed' : 'Infinity is not allowed');
    return JSON.stringify(value);
  }
  // booleans as JSON writes them; undefined, functions and symbols: undefined (BigInt: JSON's TypeError)
  if (typeof value !== 'object') return JSON.stringify(value);
  if (value === null) return 'null';
  const ancestors = seen ?? new Set<object>();
  if (ancestors.has(value)) throw new Error('Circular reference detected');
  ancestors.add(value);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  let out: string | undefined;
  if (typeof toJSON === 'function') out = write(toJSON.call(value), ancestors);
  else if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], ancestors) ?? 'null';
    }
    out += ']';
  } else {
    const record = value as Record<string, unknown>;
    const names = Object.keys(record).sort();
    out = '{';
    let first = true;
    for (const name of names) {
      if (name === omit) continue;
      const member = write(record[name], ancestors);
      if (member === undefined) continue;
      if (!first) out += ',';
      first = false;
      out += quoted(name);
      out += ':';
      out += member;
    }
    out += '}';
  }
  ancestors.delete(value);
  return out;
}

function quoted(text: string): string {
  if (!text.isWellFormed()) throw new Error('Lone surrogate is not allowed');
  return JSON.stringify(text);
}
