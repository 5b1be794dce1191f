import { expect } from 'chai';
import { termsOf, tokenize } from './internals.js';

describe('tokenize', () => {
  it('splits English into stemmed words, dropping punctuation, digits and stop words', () => {
    expect(tokenize('What are your Opening-Hours, please?!').filter((t) => !t.startsWith('~'))).to.deep.equal([
      'openinghour',
      'open',
      'hour',
    ]);
    expect(tokenize('Where is order 10492?').filter((t) => !t.startsWith('~'))).to.deep.equal(['order']);
    expect(tokenize('refunds refunded')).to.include('refund');
  });

  it('drops weak words such as "up" and "as", so they cannot decide a match', () => {
    expect(tokenize('shut up')).to.deep.equal(['shut']);
    expect(tokenize('as')).to.deep.equal([]);
  });

  it('NFKC-normalises full-width characters before lowercasing', () => {
    expect(tokenize('ＲＥＦＵＮＤ！')).to.include('refund');
  });

  it('segments Chinese into dictionary words, with bigrams and characters weighted lower', () => {
    const terms = termsOf('我想退货退款，怎么操作？');
    expect(terms.get('退货')).to.equal(1);
    expect(terms.get('退款')).to.equal(1);
    expect(terms.get('操作')).to.equal(1);
    expect(terms.get('货退')).to.be.below(1);
    expect(terms.get('退')).to.be.below(0.5);
    for (const grammar of ['我', '想', '怎么', '，', '？']) expect(terms.has(grammar), grammar).to.equal(false);
  });

  it('keeps Japanese kanji runs and katakana words, and drops hiragana grammar', () => {
    const terms = tokenize('注文をキャンセルしたいです。');
    expect(terms).to.include.members(['注文', 'キャンセル']);
    for (const grammar of ['を', 'したい', 'です', '。']) expect(terms).not.to.include(grammar);
  });

  it('keeps the few hiragana words that carry the question (いつ, いくら)', () => {
    expect(tokenize('送料はいくらですか')).to.include.members(['送料', 'いくら']);
    expect(tokenize('いつ届きますか')).to.include.members(['いつ', '届']);
  });

  it('adds a shared concept term for synonyms across languages', () => {
    for (const text of ['I want my money back', 'refund please', '可以退钱吗', '返金してほしい']) {
      expect(tokenize(text), text).to.include('~refund');
    }
    expect(tokenize('sign up')).to.include('~account');
  });

  it('counts the concept of a two-character lexicon word fully when the segmenter splits it (found as a bigram)', () => {
    // 要收钱吗: jieba cuts 要 / 收 / 钱吗, so 收钱 (a ~cost word of the shop lexicon) is only a bigram
    const terms = termsOf('送货要收钱吗');
    expect(terms.get('收钱')).to.equal(0.5);
    expect(terms.get('~cost')).to.equal(1);
    expect(terms.get('~deliver')).to.equal(1);
  });

  it('reaches the concept of a synonym through one typo, with a smaller factor', () => {
    expect(termsOf('refnud please').get('~refund')).to.be.within(0.5, 0.9);
    expect(termsOf('cancle').get('~cancel')).to.be.within(0.5, 0.9);
  });

  it('marks negated messages, which lean towards entries about problems', () => {
    for (const text of ["the code doesn't work", '优惠券用不了', 'クーポンが使えません']) expect(tokenize(text), text).to.include('~not');
    expect(tokenize('how do I use a coupon')).not.to.include('~not');
  });

  it('returns nothing for courtesy-only or punctuation-only text', () => {
    expect(tokenize('Thanks!')).to.deep.equal([]);
    expect(tokenize('ありがとうございます')).to.deep.equal([]);
    expect(tokenize('?!… 。、')).to.deep.equal([]);
  });
});
