import { expect } from 'chai';
import { loadShippedLexicon, rewriteEnglishPhrases } from '@dialog-relay/reply-engine';
import { readdirSync, readFileSync } from 'node:fs';
import { EVAL_CASES_DIR } from '../src/eval-sets.js';

describe('the shop lexicon on the evaluation sets', () => {
  it('rewrites English phrases as trying every rule in order would, on every message and phrasing of the evaluation sets', () => {
    const dir = EVAL_CASES_DIR;
    const files = [...readdirSync(dir).map((f) => dir + f), ...readdirSync(`${dir}independent`).map((f) => `${dir}independent/${f}`)];
    const texts = files.flatMap((file) => {
      if (file.endsWith('.jsonl'))
        return readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => (JSON.parse(line) as { text: string }).text);
      if (file.endsWith('.yaml')) return [...readFileSync(file, 'utf8').matchAll(/- "(.*)"/g)].map((m) => m[1]!);
      return [];
    });
    expect(texts.length).to.be.above(3000);
    const differing = texts
      .map((text) => text.normalize('NFKC').toLowerCase())
      .filter((text) => {
        const everyRule = loadShippedLexicon('shop').englishPhrases.reduce(
          (rewritten, [pattern, replacement]) => rewritten.replace(pattern, replacement),
          text,
        );
        return rewriteEnglishPhrases(text) !== everyRule;
      });
    expect(differing).to.deep.equal([]);
  });
});
