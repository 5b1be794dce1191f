import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  createKnowledgeEngine,
  EXAMPLE_KNOWLEDGE_FILE,
  loadKnowledgeBase,
  parseKnowledgeBase,
  type KnowledgeBase,
  type ReplyEngine,
} from './internals.js';
import { fileMessage, messageOf, requestOf, textMessage } from './context-messages.js';

describe('knowledge engine', () => {
  describe('with the example FAQ', () => {
    let kb: KnowledgeBase;
    let engine: ReplyEngine;
    before(async () => {
      kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
      engine = createKnowledgeEngine(kb);
    });

    const answerOf = (id: string, language = 'en'): readonly ReplyPart[] => {
      const entry = kb.entries.find((e) => e.id === id);
      const parts = entry?.answer[language];
      if (!parts) throw new Error(`no ${language} answer for ${id}`);
      return parts;
    };
    const fallback = (language = 'en'): readonly ReplyPart[] => kb.fallback[language] ?? [];
    const ask = async (text: string, context: ContextMessage[] = []) =>
      (await engine.reply(requestOf(textMessage('customer', text), context))).content;

    it('ships a FAQ of at least 50 entries, each answering in English, Chinese and Japanese, at an absolute path', () => {
      expect(isAbsolute(EXAMPLE_KNOWLEDGE_FILE) && existsSync(EXAMPLE_KNOWLEDGE_FILE)).to.equal(true);
      expect(engine.name).to.equal('knowledge');
      expect(kb.entries.length).to.be.at.least(50);
      expect(kb.defaultLanguage).to.equal('en');
      for (const entry of kb.entries) expect(Object.keys(entry.answer).sort(), entry.id).to.deep.equal(['en', 'ja', 'zh']);
      expect(Object.keys(kb.fallback).sort()).to.deep.equal(['en', 'ja', 'zh']);
    });

    it('names the answering entry as the only source; its fallback is a handoff with no sources', async () => {
      expect(await engine.reply(requestOf(textMessage('customer', 'When are you open?')))).to.deep.equal({
        content: answerOf('opening-hours'),
        handoff: false,
        sources: ['opening-hours'],
        outcome: 'answered',
      });
      expect(await engine.reply(requestOf(textMessage('customer', 'my cat says hello')))).to.deep.equal({
        content: fallback(),
        handoff: true,
        sources: [],
        outcome: 'handoff',
      });
    });

    it('answers an English paraphrase in English', async () => {
      expect(await ask('how long does delivery take')).to.deep.equal(answerOf('shipping-time'));
      expect(await ask('When are you open?')).to.deep.equal(answerOf('opening-hours'));
    });

    it('answers a Chinese question in Chinese, including the returns form document', async () => {
      const reply = await ask('退货怎么退');
      expect(reply).to.deep.equal(answerOf('returns-refunds', 'zh'));
      expect(reply.map((part) => part.type)).to.deep.equal(['text', 'document']);
    });

    it('answers a Japanese question in Japanese', async () => {
      expect(await ask('注文をキャンセルしたい')).to.deep.equal(answerOf('cancel-order', 'ja'));
    });

    it('bridges synonyms and typos to the entry', async () => {
      expect(await ask('I want my money back')).to.deep.equal(answerOf('returns-refunds'));
      expect(await ask('how do I cancle my order')).to.deep.equal(answerOf('cancel-order'));
    });

    it('tells apart neighbouring entries', async () => {
      expect(await ask('Is shipping free for big orders?')).to.deep.equal(answerOf('shipping-cost'));
      expect(await ask('Do you deliver to Canada?')).to.deep.equal(answerOf('international-shipping'));
      expect(await ask('帮我查一下订单物流')).to.deep.equal(answerOf('order-status', 'zh'));
      expect(await ask('送料は無料ですか')).to.deep.equal(answerOf('shipping-cost', 'ja'));
    });

    it("falls back, in the customer's language, for gibberish, unrelated questions and lone weak words", async () => {
      for (const text of ['asdkjh qwpeoiru zxcmvn', 'tell me a joke', 'shut up', 'order'])
        expect(await ask(text), text).to.deep.equal(fallback());
      expect(await ask('今天天气很好')).to.deep.equal(fallback('zh'));
      expect(await ask('今日の天気はどうですか')).to.deep.equal(fallback('ja'));
    });

    it('answers a follow-up from the earlier customer message, and falls back without it', async () => {
      const context = [textMessage('customer', 'What are your opening hours?'), textMessage('bot', answerOf('opening-hours')[0]!.content)];
      expect(await ask('and at Christmas?', context)).to.deep.equal(answerOf('opening-hours'));
      expect(await ask('and at Christmas?')).to.deep.equal(fallback());
    });

    it('uses only customer messages as history, and only the last historyMessages of them', async () => {
      const botOnly = [textMessage('bot', 'Our opening hours are 9 to 6.'), textMessage('agent', 'opening hours: 9 to 6')];
      expect(await ask('and at Christmas?', botOnly)).to.deep.equal(fallback());
      const older = [
        textMessage('customer', 'What are your opening hours?'),
        textMessage('customer', 'my cat says hello'),
        textMessage('customer', 'the weather is nice'),
      ];
      expect(await ask('and what about Christmas?', older)).to.deep.equal(fallback());
      const wider = createKnowledgeEngine(kb, { historyMessages: 3 });
      expect((await wider.reply(requestOf(textMessage('customer', 'and what about Christmas?'), older))).content).to.deep.equal(
        answerOf('opening-hours'),
      );
      const none = createKnowledgeEngine(kb, { historyMessages: 0 });
      const context = [textMessage('customer', 'What are your opening hours?')];
      expect((await none.reply(requestOf(textMessage('customer', 'and at Christmas?'), context))).content).to.deep.equal(fallback());
    });

    it('does not repeat an earlier answer for a courtesy message', async () => {
      expect(await ask('Thanks!', [textMessage('customer', 'What are your opening hours?')])).to.deep.equal(fallback());
    });

    it("falls back for a message with only files, in the language of the customer's earlier messages", async () => {
      const context = [textMessage('customer', '怎么退货？')];
      const reply = await engine.reply(requestOf(fileMessage('customer', 'image', 'https://x.example/photo.jpg'), context));
      expect(reply).to.deep.equal({ content: fallback('zh'), handoff: true, sources: [], outcome: 'handoff' });
    });
  });

  describe('with a small FAQ', () => {
    const kb = parseKnowledgeBase(
      `
fallback: []
entries:
  - id: gift-wrap
    questions: ["Do you offer gift wrapping?", "gift wrap", "Can you wrap a present?"]
    answer: "Yes, gift wrapping costs 3 USD."
  - id: vouchers
    questions: ["Can I buy a gift voucher?", "Do you sell voucher cards?"]
    answer: [{ type: image, content: "https://shop.example/voucher.png" }]
  - id: hours
    questions: ["What are your opening hours?", "Wie sind eure Öffnungszeiten am Samstag?"]
    answer: { en: "9 to 5.", de: "Von 9 bis 17 Uhr." }
`,
      'yaml',
    );
    const engine = createKnowledgeEngine(kb);
    const ask = async (text: string) => (await engine.reply(requestOf(textMessage('customer', text)))).content;

    it("returns part-list answers, and the default language where the customer's has no answer", async () => {
      expect(await ask('gift wrap please')).to.deep.equal([{ type: 'text', content: 'Yes, gift wrapping costs 3 USD.' }]);
      expect(await ask('I want to buy a gift voucher')).to.deep.equal([{ type: 'image', content: 'https://shop.example/voucher.png' }]);
      expect(await ask('营业时间 opening hours')).to.deep.equal([{ type: 'text', content: '9 to 5.' }]);
    });

    it('answers in another Latin-script language when the FAQ has it', async () => {
      expect(await ask('Wie sind eure Öffnungszeiten am Samstag, bitte?')).to.deep.equal([{ type: 'text', content: 'Von 9 bis 17 Uhr.' }]);
      expect(await ask('What are your opening hours on Saturday?')).to.deep.equal([{ type: 'text', content: '9 to 5.' }]);
    });

    it('uses only text parts of a mixed message, and an empty fallback means send nothing', async () => {
      const mixed = messageOf('customer', [
        { type: 'image', content: 'https://x.example/wrap.jpg' },
        { type: 'text', content: 'can you wrap this present?' },
      ]);
      expect((await engine.reply(requestOf(mixed))).content).to.deep.equal([{ type: 'text', content: 'Yes, gift wrapping costs 3 USD.' }]);
      expect(await ask('where is the nearest train station')).to.deep.equal([]);
    });

    it('falls back when two entries match equally well', async () => {
      expect(await ask('gift')).to.deep.equal([]);
    });

    it('returns copies, so changing a reply does not change the knowledge base', async () => {
      const reply = await ask('gift wrap');
      reply[0]!.content = 'changed';
      expect(await ask('gift wrap')).to.deep.equal([{ type: 'text', content: 'Yes, gift wrapping costs 3 USD.' }]);
    });

    it('rejects when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort(new Error('shutting down'));
      const outcome = await engine.reply(requestOf(textMessage('customer', 'gift wrap')), controller.signal).then(
        () => 'resolved',
        (error: Error) => error.message,
      );
      expect(outcome).to.equal('shutting down');
    });
  });
});
