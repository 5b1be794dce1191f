import { expect } from 'chai';
import { parseKnowledgeBase, termsOf, tokenize } from './internals.js';
import { createKnowledgeIndex } from '../src/knowledge/knowledge-index.js';
import { englishStem } from '../src/text/english-stem.js';
import { loadShippedLexicon, LEXICONS_DIR } from '../src/text/lexicon-data.js';
import { parse as parseYaml } from 'yaml';
import { readFileSync } from 'node:fs';

const concepts = (text: string): string[] => tokenize(text).filter((term) => term.startsWith('~'));

describe('the shop lexicon', () => {
  it('is data: lexicons/shop.yaml, read once, each concept defined once (a repeated one is refused, not dropped)', () => {
    const shop = loadShippedLexicon('shop');
    expect(Object.keys(shop.synonyms).length).to.be.above(80);
    expect(shop.englishPhrases.length).to.be.above(100);
    expect(loadShippedLexicon('shop')).to.equal(shop);
    expect(readFileSync(`${LEXICONS_DIR}shop.yaml`, 'utf8')).to.match(/^synonyms:$/m);
    // the lexicons are read like this: a concept written twice is an error, not a silently dropped group
    expect(() => void parseYaml('synonyms:\n  order: [purchase]\n  order: [bought]\n')).to.throw(/unique/);
  });

  it('can find every word of every group: each one, written alone, yields its concept', () => {
    const shop = parseYaml(readFileSync(`${LEXICONS_DIR}shop.yaml`, 'utf8')) as { synonyms: Record<string, Record<string, string[]>> };
    const unreachable = Object.entries(shop.synonyms).flatMap(([group, byLanguage]) =>
      Object.values(byLanguage)
        .flat()
        .filter((word) => !concepts(word).includes(`~${group}`))
        .map((word) => `${group}: ${word}`),
    );
    expect(unreachable).to.deep.equal([]);
  });

  it('reads customer idioms as the words a FAQ author writes', () => {
    expect(concepts('will you take it back if I do not like it?')).to.include('~return');
    expect(concepts('could you stop it before it goes out?')).to.include('~cancel');
    expect(concepts('my blender died after 5 months')).to.include('~broken');
    expect(concepts('the kettle stopped working')).to.include('~broken');
    expect(concepts('can I collect it myself from your shop?')).to.include('~locker');
    expect(concepts('I cannot sign in')).to.include.members(['~password', '~account']);
    expect(concepts('you charged me two times')).to.include('~twice');
    expect(concepts('I want to talk to a real person')).to.include('~human');
  });

  it('reads "hasn\'t come" as arriving and a negation, but not "doesn\'t come with"', () => {
    expect(tokenize("my parcel hasn't come")).to.include.members(['~deliver', '~not']);
    expect(tokenize('it hasn’t arrived yet')).to.include.members(['~deliver', '~not']);
    expect(concepts("the lamp doesn't come with a bulb")).not.to.include('~deliver');
  });

  it('does not fire an idiom on an unrelated sentence', () => {
    expect(concepts('please stop the emails')).not.to.include('~cancel');
    expect(concepts('please stop the emails')).to.include('~newsletter');
    expect(concepts('I went through all the bags')).not.to.include('~confirm');
    expect(concepts('how tall is mount everest')).not.to.include('~assembly');
  });

  it('keeps words apart that the Porter stemmer would join', () => {
    expect(englishStem('customer')).not.to.equal(englishStem('customs'));
    expect(concepts('I am a new customer')).not.to.include('~customs');
    expect(concepts('I am a new customer')).not.to.include('~engrave');
    expect(concepts('do I pay customs on this?')).to.include('~customs');
    expect(concepts('my personal opinion')).not.to.include('~privacy');
    expect(concepts('do you sell my personal data?')).to.include('~privacy');
    expect(concepts('do you install the washing machine?')).not.to.include('~instalment');
    expect(concepts('can I pay in instalments?')).not.to.include('~assembly');
    expect(concepts('I am busy')).to.deep.equal([]);
  });

  it('finds two-character Chinese words with a grammar character by substring (坏了, 少了)', () => {
    // as whole words (factor 1), not only through the single character 坏 (0.35)
    expect(termsOf('我的咖啡机坏了').get('~broken')).to.equal(1);
    expect(termsOf('收到的货少了一件').get('~missing')).to.equal(1);
    // 码 of 密码 is no size, 少 of 多少钱 nothing missing
    expect(concepts('忘记密码了')).not.to.include('~size');
    expect(concepts('运费多少钱')).not.to.include('~missing');
  });

  it('knows casual Chinese and Japanese, hiragana included', () => {
    expect(concepts('咋退钱')).to.include('~refund');
    expect(concepts('届かないんだけど')).to.include.members(['~deliver', '~not']);
    expect(concepts('へんぴんしたいんだけど')).to.include('~return');
    expect(concepts('ぱすわーど わすれちゃった')).to.include('~password');
    expect(termsOf('個人情報の扱い').has('~human')).to.equal(false);
  });

  it('bridges the casual words of each language to the concept a FAQ uses', () => {
    expect(tokenize('とどかないんだけど')).to.include.members(['~deliver', '~not']);
    expect(concepts('咋退')).to.include('~return');
    expect(concepts('物流进度咋查')).to.include('~track');
    expect(concepts('还没收到货')).to.include('~delay');
    expect(concepts('我的红包用不上')).to.include.members(['~coupon', '~invalid']);
    expect(concepts('忘了密码')).to.include('~password');
    expect(concepts('初期不良です')).to.include('~broken');
    expect(concepts('ステータスはどうなってますか')).to.include('~track');
    expect(concepts('領収証をください')).to.include('~invoice');
    expect(concepts('お問合せ窓口')).to.include('~contact');
  });

  it('reads more English idioms as concept words', () => {
    expect(concepts("my payment didn't go through")).to.include('~fail');
    expect(concepts('I want to close my account')).to.include('~delete');
    expect(concepts('these shoes are too big')).to.include('~size');
    expect(concepts('what are they made of?')).to.include('~material');
    expect(concepts('any update on my order?')).to.include('~track');
    expect(concepts('can you leave it in a safe place?')).to.include('~instructions');
    expect(concepts("the charger wasn't included")).to.include('~missing');
  });

  it('reads "where is my <anything of theirs>" as tracking, but not where money, codes or accounts are', () => {
    expect(concepts("where's my sofa")).to.include('~track');
    expect(concepts('where is my box')).to.include('~track');
    expect(concepts('where are our chairs?')).to.include('~track');
    expect(concepts('where is my refund')).not.to.include('~track');
    expect(concepts("where's my discount code")).not.to.include('~track');
    expect(concepts('where is the size guide')).not.to.include('~track');
  });

  it('reads "send <whatever it is> back" as a return, keeping the words of what is sent', () => {
    expect(concepts('how do i send this rug back')).to.include('~return');
    expect(concepts('can I still send the lamp back?')).to.include('~return');
    expect(concepts('do i pay for sending stuff back')).to.include('~return');
    expect(concepts('sent the oak table back last week')).to.include('~return');
    expect(concepts('send it back')).to.include('~return');
    expect(tokenize('can I send the lamp back?')).to.include('lamp');
    expect(concepts('send me the link')).not.to.include('~return');
    expect(concepts('please send the receipt to my new email, I will get back to you')).not.to.include('~return');
  });

  it("reads cancelling, missing items, restocks, order status, expiring points and moving house in customers' words", () => {
    expect(concepts('can I undo the order before you send it?')).to.include('~cancel');
    expect(concepts('can you kill the second one before it ships')).to.include('~cancel');
    expect(concepts('can i just scrap the whole thing')).to.include('~cancel');
    expect(concepts('stop the emails please')).not.to.include('~cancel');
    expect(concepts("the rug wasn't in it")).to.include('~missing');
    expect(concepts("the scarf isn't in there")).to.include('~missing');
    expect(concepts('ordered 4 chairs only got 3')).to.include('~missing');
    expect(concepts('I only got the email today')).not.to.include('~missing');
    expect(concepts('when will the emerald velvet armchair be back')).to.include('~stock');
    expect(tokenize('when will the emerald velvet armchair be back')).to.include('armchair');
    expect(concepts('when will you be back online')).not.to.include('~stock');
    expect(concepts('it still says processing')).to.include('~track');
    expect(concepts('is my order being packed yet')).to.include('~track');
    expect(concepts('how many pts do i get')).to.include('~points');
    expect(concepts('will my points run out if i dont shop')).to.include('~expiry');
    expect(concepts("we're moving next week, can the bed go to the new flat instead")).to.include.members(['~address', '~change']);
  });

  it("reads Chinese customers' words for scratches, holes, half a delivery, the wrong thing sent, ingredients and weekdays", () => {
    expect(concepts('桌面被划了好大一道')).to.include('~damaged');
    expect(concepts('衣服上有个洞')).to.include('~damaged');
    expect(concepts('订了两样东西只到了一样')).to.include('~missing');
    expect(concepts('我买的是灰色沙发，送来的是蓝色的')).to.include('~wrong');
    expect(concepts('这款粉底液含不含酒精')).to.include('~ingredients');
    expect(concepts('能不能下周三送')).to.include('~schedule');
  });

  it('reads where the van is, a frozen plan, a slot picked, items added and getting hold of the shop', () => {
    expect(concepts('i wanna see where the van is')).to.include('~track');
    expect(concepts("what's going on with my order?")).to.include('~track');
    expect(concepts('how do i pick when it comes')).to.include('~schedule');
    expect(concepts('can i choose a delivery day')).to.include('~schedule');
    expect(concepts('can i freeze my plan for a couple months')).to.include('~subscription');
    expect(concepts('can i freeze the bread')).not.to.include('~subscription');
    expect(concepts('is it too late to add stuff to my order')).to.include('~change');
    expect(concepts('how do I get hold of you')).to.include('~contact');
    expect(concepts('where the size guide is')).not.to.include('~track');
  });

  it("reads a loan as paying in instalments, and Japanese customers' words for calling an order off and for what they never ordered", () => {
    expect(concepts('ローンで買えますか')).to.include('~instalment');
    expect(concepts('can I get a loan for the sofa')).to.include('~instalment');
    expect(concepts('注文をなしにしてもらえますか')).to.include('~cancel');
    expect(concepts('頼んでないものが来た')).to.include('~wrong');
  });

  it('reads an email address as an email (not a postal one), and swapping or adding something in an order as changing it, in three languages', () => {
    expect(concepts('whats ur email address')).not.to.include('~address');
    expect(concepts('whats ur email address')).to.include.members(['~contact', '~email']);
    expect(concepts('please send it to my home address')).to.include('~address');
    expect(concepts('can i swap the grey cushions in my order for the green ones')).to.include.members(['~change', '~order']);
    expect(concepts('can you just switch it on the order?')).to.include('~change');
    expect(concepts('can i swap it for a bigger size')).not.to.include('~change');
    expect(concepts('能往已经下好的订单里再加一件吗')).to.include('~add');
    expect(concepts('もう一個追加で同じ箱に入れてもらえる？')).to.include('~add');
    expect(concepts('フィルターも一緒に入れてもらうことってできますか')).to.include('~add');
    expect(concepts('can I add a cushion to my order')).to.include('~add');
  });

  it('reads asking whether a product contains something as asking after its ingredients, but not an order that contains one', () => {
    expect(concepts('does the foundation contain parabens')).to.include('~ingredients');
    expect(concepts('do these bars contain nuts?')).to.include('~ingredients');
    expect(concepts('My order contains a product that I did not order.')).not.to.include('~ingredients');
  });

  it('keeps the carrier (配送業者) out of bulk orders', () => {
    expect(concepts('配送業者はどこですか')).not.to.include('~bulk');
    expect(concepts('配送業者はどこですか')).to.include('~deliver');
  });

  it('makes "stuff" a stop word', () => {
    expect(tokenize('stuff')).to.deep.equal([]);
  });

  describe('in a FAQ', () => {
    const kb = parseKnowledgeBase(
      `
fallback: []
entries:
  - id: returns
    questions: ["How do I return an item?", "What is your return policy?"]
    answer: "Within 30 days."
  - id: customs
    questions: ["Do I have to pay customs duties?"]
    answer: "No, we pay them."
  - id: contact
    questions: ["How can I reach customer service?"]
    answer: "Write to us."
  - id: cancel
    questions: ["How do I cancel my order?"]
    answer: "Under My Orders."
`,
      'yaml',
    );
    const index = createKnowledgeIndex(kb.entries);
    const best = (text: string): string | undefined => index.rank(text).matches[0]?.entry.id;

    it('reaches the return entry from a customer\'s "take it back"', () => {
      expect(best('will you take it back if it does not fit?')).to.equal('returns');
    });

    it('does not send a customer question to customs', () => {
      expect(best('I am a customer, how do I get in touch?')).to.equal('contact');
    });

    it('reaches the cancel entry from "stop it before it ships"', () => {
      expect(best('please stop it before it ships')).to.equal('cancel');
    });
  });
});
