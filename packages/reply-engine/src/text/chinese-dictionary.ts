/**
 * The least frequency (in jieba's dictionary, a count over its corpus) of a word the Chinese
 * segmenter knows. jieba ships 349,045 words, most of them rare names and compounds; those counted
 * under 5 times (212,498 words, 61 %) cost about 24 MiB of memory in every process that segments
 * Chinese and, measured on the five evaluation FAQs, almost no accuracy (docs/knowledge-engine.md,
 * "Memory"): a rare compound that is not kept splits into shorter words and characters, which the
 * index matches too.
 */
export const MIN_WORD_FREQUENCY = 5;

const NEWLINE = 0x0a;
const SPACE = 0x20;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * The lines of a jieba dictionary (`word frequency [tag]` a line) whose frequency is at least
 * `minFrequency`, as a new buffer. Read byte by byte, so no string is made of the 5 MB input.
 */
export function cutDictionary(dict: Uint8Array, minFrequency: number): Uint8Array {
  const kept = new Uint8Array(dict.length);
  let length = 0;
  let start = 0;
  while (start < dict.length) {
    let end = dict.indexOf(NEWLINE, start);
    if (end < 0) end = dict.length;
    let at = dict.indexOf(SPACE, start);
    let frequency = 0;
    if (at >= 0 && at < end) {
      for (at += 1; at < end; at++) {
        const byte = dict[at] ?? 0;
        if (byte < ZERO || byte > NINE) break;
        frequency = frequency * 10 + (byte - ZERO);
      }
    }
    if (frequency >= minFrequency && end > start) {
      kept.set(dict.subarray(start, end), length);
      length += end - start;
      kept[length++] = NEWLINE;
    }
    start = end + 1;
  }
  return kept.slice(0, length);
}
