import type { FieldError } from './app-error.js';
import { DEFAULT_BODY_SHAPE, type BodyShapeLimits } from './body-shape.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/**
 * checkBodyShape's limits applied to the raw UTF-8 bytes, before JSON.parse (docs/service-rules.md §16):
 * one pass that counts the JSON values (as checkBodyShape does, member names not counted) and the
 * nesting outside strings, and stops at the first value over a limit. A hostile body then costs one
 * read of its bytes, not a parse into hundreds of thousands of values. Text that is not JSON is not
 * refused here (JSON.parse does that next); bytes of UTF-8 above 0x7f never look like punctuation.
 */
export function checkRawBodyShape(raw: Uint8Array, limits: BodyShapeLimits = DEFAULT_BODY_SHAPE): FieldError | undefined {
  /** For each open container: true for an object (after its commas come names), false for an array. */
  const inObject: boolean[] = [];
  let values = 0;
  // True where the next token starts a value: the beginning, after '[', ':', or a comma in an array.
  let valueNext = true;
  const hasBom = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf;
  for (let at = hasBom ? 3 : 0; at < raw.length; at++) {
    const byte = raw[at];
    switch (byte) {
      case SPACE:
      case TAB:
      case LF:
      case CR:
        continue;
      case QUOTE:
        if (valueNext && ++values > limits.maxValues) return tooManyValues(limits);
        at = endOfString(raw, at);
        valueNext = false;
        continue;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (++values > limits.maxValues) return tooManyValues(limits);
        if (inObject.length + 1 > limits.maxDepth) {
          return { path: '', code: 'maxDepth', message: `The request body is nested deeper than ${limits.maxDepth} levels.` };
        }
        inObject.push(byte === OPEN_OBJECT);
        valueNext = byte === OPEN_ARRAY;
        continue;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        inObject.pop();
        valueNext = false;
        continue;
      case COMMA:
        valueNext = inObject[inObject.length - 1] === false;
        continue;
      case COLON:
        valueNext = true;
        continue;
      case undefined:
      default:
        // The first byte of a number, true, false or null (later bytes of it follow valueNext = false).
        if (valueNext && ++values > limits.maxValues) return tooManyValues(limits);
        valueNext = false;
    }
  }
  return undefined;
}

/** The index of the quote closing the string that opens at `start` (or the last index). */
function endOfString(raw: Uint8Array, start: number): number {
  for (let at = start + 1; at < raw.length; at++) {
    const byte = raw[at];
    if (byte === BACKSLASH) at += 1;
    else if (byte === QUOTE) return at;
  }
  return raw.length;
}

const tooManyValues = (limits: BodyShapeLimits): FieldError => ({
  path: '',
  code: 'maxValues',
  message: `The request body holds more than ${limits.maxValues} JSON values.`,
});
