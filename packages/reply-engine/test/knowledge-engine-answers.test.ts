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
} from '../src/index.js';
import { fileMessage, messageOf, requestOf, textMessage } from './context-messages.js';

describe('knowledge engine', () => {
  describe('with the example FAQ', () => {
    let kb: KnowledgeBase;
    let engine: ReplyEngine;
    before(async () => {
      kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
      engine = createKnowledgeEngine(kb);
    });

    const answerOf = (id: string): ReplyPart[] => {
      const entry = kb.entries.find((e) => e.id === id);
      if (!entry) throw new Error(`no entry ${id}`);
      return entry.answer;
    };
    const ask = (text: string, context: ContextMessage[] = []) => engine.reply(requestOf(textMessage('customer', text), context));

    it('ships a 10–14 entry FAQ with English, Chinese and Japanese phrasings, at an absolute path', () => {
      expect(isAbsolute(EXAMPLE_KNOWLEDGE_FILE) && existsSync(EXAMPLE_KNOWLEDGE_FILE)).to.equal(true);
      expect(engine.name).to.equal('knowledge');
      expect(kb.entries.length).to.be.within(10, 14);
      for (const entry of kb.entries) {
        expect(entry.questions.some((q) => /\p{Script=Han}/u.test(q) && !/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(q)), entry.id).to.equal(true);
        expect(entry.questions.some((q) => /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(q)), entry.id).to.equal(true);
      }
    });

    it('answers an English paraphrase with the shipping-time entry', async () => {
      expect(await ask('how long does delivery take')).to.deep.equal(answerOf('shipping-time'));
    });

    it('answers a Chinese question with the returns entry, including its form document', async () => {
      const reply = await ask('我想退货');
      expect(reply).to.deep.equal(answerOf('returns-refunds'));
      expect(reply.map((part) => part.type)).to.deep.equal(['text', 'document']);
    });

    it('answers a Japanese question with the cancel-order entry', async () => {
      expect(await ask('注文をキャンセルしたい')).to.deep.equal(answerOf('cancel-order'));
    });

    it('tells apart neighbouring entries', async () => {
      expect(await ask('Is shipping free for big orders?')).to.deep.equal(answerOf('shipping-cost'));
      expect(await ask('Do you deliver to Canada?')).to.deep.equal(answerOf('international-shipping'));
      expect(await ask('我的快递到哪了')).to.deep.equal(answerOf('order-status'));
      expect(await ask('送料は無料ですか')).to.deep.equal(answerOf('shipping-cost'));
    });

    it('falls back for gibberish, unrelated questions and ambiguous single words', async () => {
      for (const text of ['asdkjh qwpeoiru zxcmvn', 'tell me a joke', '今天天气很好', 'order']) {
        expect(await ask(text), text).to.deep.equal(kb.fallback);
      }
    });

    it('answers a follow-up from the earlier customer message, and falls back without it', async () => {
      const context = [textMessage('customer', 'What are your opening hours?'), textMessage('bot', answerOf('opening-hours')[0]!.content)];
      expect(await ask('and on Saturday?', context)).to.deep.equal(answerOf('opening-hours'));
      expect(await ask('and on Saturday?')).to.deep.equal(kb.fallback);
    });

    it('uses only customer messages as history, and only the last historyMessages of them', async () => {
      const botOnly = [textMessage('bot', 'Our opening hours are 9 to 6.'), textMessage('agent', 'opening hours: 9 to 6')];
      expect(await ask('and on Saturday?', botOnly)).to.deep.equal(kb.fallback);
      const older = [
        textMessage('customer', 'What are your opening hours?'),
        textMessage('customer', 'I like your shop'),
        textMessage('customer', 'my cat says hello'),
      ];
      expect(await ask('and on Saturday?', older)).to.deep.equal(kb.fallback);
      const wider = createKnowledgeEngine(kb, { historyMessages: 3 });
      expect(await wider.reply(requestOf(textMessage('customer', 'and on Saturday?'), older))).to.deep.equal(answerOf('opening-hours'));
      const none = createKnowledgeEngine(kb, { historyMessages: 0 });
      const context = [textMessage('customer', 'What are your opening hours?')];
      expect(await none.reply(requestOf(textMessage('customer', 'and on Saturday?'), context))).to.deep.equal(kb.fallback);
    });

    it('does not repeat an earlier answer for a courtesy message', async () => {
      expect(await ask('Thanks!', [textMessage('customer', 'What are your opening hours?')])).to.deep.equal(kb.fallback);
    });

    it('falls back for a message with only files, even after a question', async () => {
      const context = [textMessage('customer', 'How do I return an item?')];
      const reply = await engine.reply(requestOf(fileMessage('customer', 'image', 'https://x.example/photo.jpg'), context));
      expect(reply).to.deep.equal(kb.fallback);
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
`,
      'yaml',
    );
    const engine = createKnowledgeEngine(kb);
    const ask = (text: string) => engine.reply(requestOf(textMessage('customer', text)));

    it('ranks entries by their best phrasing and returns part-list answers', async () => {
      expect(await ask('gift wrap please')).to.deep.equal([{ type: 'text', content: 'Yes, gift wrapping costs 3 USD.' }]);
      expect(await ask('I want to buy a gift voucher')).to.deep.equal([{ type: 'image', content: 'https://shop.example/voucher.png' }]);
    });

    it('uses only text parts of a mixed message, and an empty fallback means send nothing', async () => {
      const mixed = messageOf('customer', [
        { type: 'image', content: 'https://x.example/wrap.jpg' },
        { type: 'text', content: 'can you wrap this present?' },
      ]);
      expect(await engine.reply(requestOf(mixed))).to.deep.equal([{ type: 'text', content: 'Yes, gift wrapping costs 3 USD.' }]);
      expect(await ask('where is the nearest train station')).to.deep.equal([]);
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
