import { expect } from 'chai';
import { tokenize } from '../src/index.js';

describe('tokenize', () => {
  it('splits English into lowercase words, dropping punctuation and stop words', () => {
    expect(tokenize('What are your Opening-Hours, please?!')).to.deep.equal(['opening', 'hours']);
    expect(tokenize('How long does delivery take?')).to.deep.equal(['long', 'delivery', 'take']);
  });

  it('NFKC-normalises full-width characters before lowercasing', () => {
    expect(tokenize('ＤＥＬＩＶＥＲＹ　ＴＩＭＥ！')).to.deep.equal(['delivery', 'time']);
  });

  it('emits overlapping bigrams for Chinese, so words ICU splits into characters still match', () => {
    const terms = tokenize('我想退货，可以吗？');
    expect(terms).to.include.members(['我想', '想退', '退货', '可以', '退', '货']);
    expect(terms).not.to.include.members(['，', '？', '吗']);
  });

  it('emits the single character for a Han run of one', () => {
    expect(tokenize('退')).to.deep.equal(['退']);
  });

  it('keeps Japanese kanji and katakana words with their bigrams, and drops hiragana grammar', () => {
    const terms = tokenize('注文をキャンセルしたいです。');
    expect(terms).to.include.members(['注文', 'キャンセル', 'キャ', 'ャン', 'ンセ', 'セル']);
    for (const grammar of ['を', 'したい', 'した', 'たい', 'です', '。']) expect(terms).not.to.include(grammar);
  });

  it('keeps the prolonged sound mark inside katakana words', () => {
    expect(tokenize('オペレーター')).to.include.members(['オペレーター', 'オペ', 'レー', 'ター']);
  });

  it('handles mixed-language text and returns each term once', () => {
    expect(tokenize('Refund refund 退款 返金')).to.deep.equal(['refund', '退款', '返金']);
  });

  it('returns nothing for courtesy-only or punctuation-only text', () => {
    expect(tokenize('Thanks!')).to.deep.equal([]);
    expect(tokenize('ありがとうございます')).to.deep.equal([]);
    expect(tokenize('?!… 。、')).to.deep.equal([]);
  });
});
