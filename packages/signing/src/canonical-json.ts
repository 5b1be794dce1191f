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
  const ready = jsonReady(value, 0, omit);
  return ready === SLOW ? write(value, undefined, omit) : JSON.stringify(ready);
}

/** jsonReady's answer for a value it leaves to `write`. */
const SLOW = Symbol('slow');
/** Deeper than this, `write` takes over (it finds cycles; a signed body is far shallower). */
const READY_DEPTH = 32;

/**
 * The common case in one native call: a value of JSON's own kinds (what JSON.parse gives) whose
 * `JSON.stringify` is its canonical form once every object's members are in order. Returns the
 * value itself when its members already are (no copy), a copy with them sorted (and `omit` left out
 * of the outermost object) when not, and SLOW for anything else, which `write` handles and refuses
 * as before: a number that is not finite, a string or name with a lone surrogate, a name V8 would
 * not keep in insertion order (an array index: those come first, by value) or `__proto__`, toJSON,
 * undefined, a function, a symbol, a BigInt, a hole, or a depth past READY_DEPTH.
 */
function jsonReady(value: unknown, depth: number, omit?: string): unknown {
  switch (typeof value) {
    case 'string':
      return value.isWellFormed() ? value : SLOW;
    case 'number':
      return Number.isFinite(value) ? value : SLOW;
    case 'boolean':
      return value;
    case 'object':
      break;
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      return SLOW;
  }
  if (value === null) return null;
  if (depth >= READY_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return SLOW;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const ready = jsonReady(item, depth + 1);
      if (ready === SLOW) return SLOW;
      if (ready !== item) (copy ??= value.slice(0, i)).push(ready);
      else copy?.push(item);
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const names = Object.keys(record);
  let sorted = true;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const first = name.charCodeAt(0);
    if ((first >= 48 && first <= 57) || name === '__proto__' || !name.isWellFormed()) return SLOW;
    if (i > 0 && !(names[i - 1]! < name)) sorted = false;
  }
  if (!sorted) sortNames(names);
  let copy: Record<string, unknown> | undefined = sorted && (omit === undefined || !(omit in record)) ? undefined : {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name === omit) continue;
    const member = record[name];
    const ready = jsonReady(member, depth + 1);
    if (ready === SLOW) return SLOW;
    if (copy === undefined && ready !== member) {
      copy = {};
      for (let j = 0; j < i; j++) copy[names[j]!] = record[names[j]!];
    }
    if (copy !== undefined) copy[name] = ready;
  }
  return copy ?? record;
}

/** Longer lists of names go to Array#sort. */
const INSERTION_SORT_MAX = 16;

/**
 * Sorts member names in place by their UTF-16 code units, as Array#sort without a comparator does
 * (`>` on strings compares the same way). A request's objects have a handful of members: insertion
 * sort orders them without the scratch arrays Array#sort allocates, in a quarter to a third of its time
 * (7 names: 135-213 against 365-600 ns; docs/design/performance-log.md, nineteenth session).
 */
function sortNames(names: string[]): void {
  if (names.length > INSERTION_SORT_MAX) {
    names.sort();
    return;
  }
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i - 1;
    while (j >= 0 && names[j]! > name) {
      names[j + 1] = names[j]!;
      j--;
    }
    names[j + 1] = name;
  }
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
