import { SECRET_PLACEHOLDER } from '@dialog-relay/signing';

/** A stretch of the text to write as {secret}: `[start, end)`, and whether it is a JSON value (then written quoted). */
interface Redaction {
  start: number;
  end: number;
  jsonValue: boolean;
}

/**
 * docs/service-rules.md §16: the 401 detail shows the string the server signed, but never a secret. The
 * value of every member named `secret` in any letter case (any type: string, number, object, array, boolean, null)
 * becomes "{secret}", and every occurrence of the client's own secrets becomes {secret}.
 *
 * The work is bounded by `maxChars`, never by the body: only the first maxChars characters of the
 * text are shown (then a note of the full length), and the scan reads at most maxChars plus the
 * longest secret. `json` says the text is JSON (the canonical form), whose `secret` members are
 * found by a single pass over it.
 */
export function redactDetail(text: string, options: { clientSecrets: readonly string[]; maxChars: number; json: boolean }): string {
  const forms = secretForms(options.clientSecrets);
  const limit = Math.min(text.length, options.maxChars);
  const end = Math.min(text.length, limit + Math.max(0, ...forms.map((form) => form.length)));
  const redactions = [...(options.json ? secretMembers(text, limit, end) : []), ...occurrences(text, forms, limit, end)];
  redactions.sort((a, b) => a.start - b.start);

  let shown = '';
  let at = 0;
  for (const redaction of redactions) {
    if (redaction.start < at) {
      // Overlapping the previous one: already written as {secret}.
      at = Math.max(at, redaction.end);
      continue;
    }
    shown += text.slice(at, redaction.start) + (redaction.jsonValue ? `"${SECRET_PLACEHOLDER}"` : SECRET_PLACEHOLDER);
    at = redaction.end;
  }
  if (at < limit) shown += text.slice(at, limit);
  return text.length > limit ? `${shown}… (cut; ${text.length} characters in all)` : shown;
}

/** A client secret as it may appear: itself, and as JSON writes it inside a string. */
function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === '') continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  return [...forms];
}

/** Every occurrence of a form starting before `limit` (all of it lies before `end`). */
function occurrences(text: string, forms: readonly string[], limit: number, end: number): Redaction[] {
  const window = text.slice(0, end);
  const found: Redaction[] = [];
  for (const form of forms) {
    for (let at = window.indexOf(form); at !== -1 && at < limit; at = window.indexOf(form, at + 1)) {
      found.push({ start: at, end: at + form.length, jsonValue: false });
    }
  }
  return found;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SECRET_KEY = '"secret"';

/**
 * The values of members named `secret` that start before `limit`, found in one pass over JSON
 * text (a value running on past `end` is taken to end there). Keys are told from string values by
 * the container they are in and the token before them.
 */
function secretMembers(text: string, limit: number, end: number): Redaction[] {
  const found: Redaction[] = [];
  const inObject: boolean[] = [];
  let expectKey = false;
  let secretKey = false;
  let secretValue = false;
  let at = 0;
  while (at < limit) {
    const c = text[at];
    if (secretValue && c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
      const valueEnd = endOfValue(text, at, end);
      found.push({ start: at, end: valueEnd, jsonValue: true });
      secretValue = false;
      at = valueEnd;
      continue;
    }
    switch (c) {
      case '"': {
        const stringEnd = endOfString(text, at, end);
        if (expectKey) {
          secretKey = stringEnd - at === SECRET_KEY.length && text.slice(at, stringEnd).toLowerCase() === SECRET_KEY;
          expectKey = false;
        }
        at = stringEnd;
        continue;
      }
      case '{':
      case '[':
        inObject.push(c === '{');
        expectKey = c === '{';
        break;
      case '}':
      case ']':
        inObject.pop();
        expectKey = false;
        break;
      case ',':
        expectKey = inObject[inObject.length - 1] === true;
        break;
      case ':':
        secretValue = secretKey;
        secretKey = false;
        break;
      case undefined:
      default:
        break;
    }
    at += 1;
  }
  return found;
}

/** The index just after the string opening at `start` (or `end`). */
function endOfString(text: string, start: number, end: number): number {
  for (let at = start + 1; at < end; at++) {
    const c = text.charCodeAt(at);
    if (c === BACKSLASH) at += 1;
    else if (c === QUOTE) return at + 1;
  }
  return end;
}

/** The index just after the JSON value starting at `start` (or `end`). */
function endOfValue(text: string, start: number, end: number): number {
  const first = text[start];
  if (first === '"') return endOfString(text, start, end);
  if (first !== '{' && first !== '[') {
    let at = start;
    while (at < end && !',]}'.includes(text[at] ?? ',')) at += 1;
    return at;
  }
  let depth = 0;
  for (let at = start; at < end; at++) {
    const c = text[at];
    if (c === '"') at = endOfString(text, at, end) - 1;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return end;
}
