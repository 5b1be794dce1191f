import type { Jieba as JiebaType } from '@node-rs/jieba';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cutDictionary, MIN_WORD_FREQUENCY } from './chinese-dictionary.js';

interface Segmenter {
  cut(run: string): string[];
}

const require = createRequire(import.meta.url);
let segmenter: Segmenter | undefined;

/**
 * jieba with its dictionary (shipped inside the npm package), cut to the words of at least
 * MIN_WORD_FREQUENCY (chinese-dictionary.ts); loaded once, the first time a text with Chinese is
 * segmented (a process whose knowledge files have none never loads it). Its native code
 * comes as a prebuilt binary in a per-platform npm package; where none installed (a platform the
 * lockfile does not list), Intl.Segmenter's dictionary takes over, which splits more words into
 * single characters but keeps the engine working.
 */
function loadSegmenter(): Segmenter {
  try {
    const { Jieba } = require('@node-rs/jieba') as { Jieba: typeof JiebaType };
    // read here, not through the package's dict.js, which keeps the whole dictionary and its IDF table (11 MB) for good
    const jieba = Jieba.withDict(cutDictionary(readFileSync(require.resolve('@node-rs/jieba/dict.txt')), MIN_WORD_FREQUENCY));
    return { cut: (run) => jieba.cut(run, false) };
  } catch {
    const intl = new Intl.Segmenter('zh', { granularity: 'word' });
    return { cut: (run) => Array.from(intl.segment(run), (part) => part.segment) };
  }
}

/**
 * Chinese words of a run of Han characters by jieba's dictionary. HMM guessing of unknown words is
 * off: it invents words from arbitrary neighbours, and the character bigrams cover unknown words anyway.
 */
export function chineseWords(run: string): string[] {
  segmenter ??= loadSegmenter();
  return segmenter.cut(run);
}
