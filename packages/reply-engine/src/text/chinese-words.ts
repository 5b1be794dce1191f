import type { Jieba as JiebaType } from '@node-rs/jieba';
import { createRequire } from 'node:module';

interface Segmenter {
  cut(run: string): string[];
}

const require = createRequire(import.meta.url);
let segmenter: Segmenter | undefined;

/**
 * jieba with its dictionary (shipped inside the npm package, loaded once, ~0.2 s). Its native code
 * comes as a prebuilt binary in a per-platform npm package; where none installed (a platform the
 * lockfile does not list), Intl.Segmenter's dictionary takes over, which splits more words into
 * single characters but keeps the engine working.
 */
function loadSegmenter(): Segmenter {
  try {
    const { Jieba } = require('@node-rs/jieba') as { Jieba: typeof JiebaType };
    const { dict } = require('@node-rs/jieba/dict.js') as { dict: Uint8Array };
    const jieba = Jieba.withDict(dict);
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
