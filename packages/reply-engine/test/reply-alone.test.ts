import type { ContextMessage } from '@dialog-relay/contracts';
import { expect } from 'chai';
import {
  countedEngine,
  createKnowledgeEngine,
  createKnowledgeResponder,
  createResponderEngine,
  EXAMPLE_KNOWLEDGE_FILE,
  loadKnowledgeBase,
  type KnowledgeBase,
  type KnowledgeResponder,
  type ReplyEngine,
  type ReplyOutcome,
} from './internals.js';
import { fileMessage, requestOf, textMessage } from './context-messages.js';

/**
 * docs/design/performance.md "A reply from the message alone": website_dialog asks the engine for a
 * reply no earlier message could change before it reads the context; when there is one, the
 * request's context is never read.
 */
describe('a reply made from the message alone (replyAlone)', () => {
  let kb: KnowledgeBase;
  let engine: ReplyEngine;
  before(async () => {
    kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
    engine = createKnowledgeEngine(kb);
  });

  // contexts that would change a reply that rests on them: an English question, a Chinese one, a Japanese one
  const contexts = (): ContextMessage[][] => [
    [],
    [textMessage('customer', 'What are your opening hours?')],
    [textMessage('customer', '怎么退货？'), textMessage('bot', '请填写退货单')],
    [textMessage('customer', '注文をキャンセルしたい')],
  ];

  it('is the reply the engine gives with any context, for a confident question and for a message with no words to search', async () => {
    for (const text of ['When are you open?', '退货怎么退', '注文をキャンセルしたい', 'Thanks!', 'how do I cancle my order']) {
      const alone = await engine.replyAlone?.(requestOf(textMessage('customer', text)));
      expect(alone, text).to.not.equal(undefined);
      for (const context of contexts()) {
        expect(await engine.reply(requestOf(textMessage('customer', text), context)), text).to.deep.equal(alone?.reply);
      }
    }
  });

  it('is not given when the earlier messages may decide the entry or the language', async () => {
    // a follow-up (the earlier question completes it), words that answer nothing alone, a message without text
    for (const message of [
      textMessage('customer', 'and at Christmas?'),
      textMessage('customer', 'my cat says hello'),
      fileMessage('customer', 'image', 'https://x.example/photo.jpg'),
    ]) {
      expect(await engine.replyAlone?.(requestOf(message)), JSON.stringify(message.content)).to.equal(undefined);
    }
    const followUp = textMessage('customer', 'and at Christmas?');
    await engine.replyAlone?.(requestOf(followUp));
    const reply = await engine.reply(requestOf(followUp, [textMessage('customer', 'What are your opening hours?')]));
    expect(reply.sources).to.deep.equal(['opening-hours']);
  });

  it('ranks the message alone once: the reply with the context after it starts from what replyAlone found', async () => {
    const responder = createKnowledgeResponder(kb);
    const calls = { alone: 0, decide: 0, given: 0 };
    const counting: KnowledgeResponder = {
      ...responder,
      decideAlone: (text) => {
        calls.alone += 1;
        return responder.decideAlone(text);
      },
      decide: (text, history, alone) => {
        calls.decide += 1;
        if (alone !== undefined) calls.given += 1;
        return responder.decide(text, history, alone);
      },
    };
    const counted = createResponderEngine(() => counting);
    const followUp = textMessage('customer', 'and at Christmas?');
    expect(await counted.replyAlone?.(requestOf(followUp))).to.equal(undefined);
    const reply = await counted.reply(requestOf(followUp, [textMessage('customer', 'What are your opening hours?')]));
    expect(reply.sources).to.deep.equal(['opening-hours']);
    expect(calls).to.deep.equal({ alone: 1, decide: 1, given: 1 });
    // another message object (another request) is decided afresh: without the context it falls back
    expect((await counted.reply(requestOf(textMessage('customer', 'and at Christmas?')))).handoff).to.equal(true);
    expect(calls).to.deep.equal({ alone: 1, decide: 2, given: 1 });
  });

  it('is counted once used, not when made (its request may be refused or repeated); an engine without it gets none from the count', async () => {
    const counts: ReplyOutcome[] = [];
    const counted = countedEngine(engine, (_name, outcome) => counts.push(outcome));
    const answered = await counted.replyAlone?.(requestOf(textMessage('customer', 'When are you open?')));
    const thanked = await counted.replyAlone?.(requestOf(textMessage('customer', 'Thanks!')));
    expect(await counted.replyAlone?.(requestOf(textMessage('customer', 'and at Christmas?')))).to.equal(undefined);
    expect(counts).to.deep.equal([]);
    thanked?.used();
    expect(counts).to.deep.equal(['handoff']);
    answered?.used();
    expect(counts).to.deep.equal(['handoff', 'answered']);
    // a model engine must never be asked before the request is admitted: the count adds no replyAlone
    const model: ReplyEngine = { name: 'model', contextWindow: 10, reply: () => Promise.reject(new Error('not here')) };
    expect('replyAlone' in countedEngine(model, () => undefined)).to.equal(false);
  });
});
