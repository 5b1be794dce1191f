import { expect } from 'chai';
import { detectLanguage, languageName } from './internals.js';

describe('detectLanguage', () => {
  it('tells English, Chinese and Japanese apart by script', () => {
    expect(detectLanguage('Where is my order?')).to.equal('en');
    expect(detectLanguage('我的订单到哪里了？')).to.equal('zh');
    expect(detectLanguage('注文した商品はいつ届きますか？')).to.equal('ja');
    expect(detectLanguage('キャンセル')).to.equal('ja');
  });

  it('weighs mixed text: a greeting in Chinese before an English question stays English', () => {
    expect(detectLanguage('你好, what are your opening hours?')).to.equal('en');
    expect(detectLanguage('PayPal可以用吗')).to.equal('zh');
  });

  it('returns undefined for text without letters', () => {
    expect(detectLanguage('12345 ?!')).to.equal(undefined);
    expect(detectLanguage('')).to.equal(undefined);
  });

  it('asks the detector only when another Latin-script language can be answered, and not for one or two words', () => {
    expect(detectLanguage('Wo ist meine Bestellung bitte?')).to.equal('en');
    expect(detectLanguage('Wo ist meine Bestellung bitte?', ['en', 'de'])).to.equal('de');
    expect(detectLanguage('refund?', ['en', 'de'])).to.equal('en');
    expect(detectLanguage('Where is my order, please?', ['en', 'de'])).to.equal('en');
  });

  it('names languages for prompts, passing unknown codes through', () => {
    expect(languageName('ja')).to.equal('Japanese');
    expect(languageName('sw')).to.equal('sw');
  });
});
