import { expect } from 'chai';
import {
  createKnowledgeResponder,
  EXAMPLE_KNOWLEDGE_FILE,
  loadKnowledgeBase,
  parseKnowledgeBase,
  retrieveEntries,
  type KnowledgeResponder,
} from './internals.js';

describe('retrieveEntries', () => {
  let responder: KnowledgeResponder;
  before(async () => {
    responder = createKnowledgeResponder(await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE));
  });

  it("returns at most K entries, best first, with ids, scores and answers in the customer's language", () => {
    const en = retrieveEntries(responder, 'How long does delivery take?', [], 4);
    expect(en.language).to.equal('en');
    expect(en.answerLanguage).to.equal('en');
    expect(en.entries).to.have.length(4);
    expect(en.entries[0]?.id).to.equal('shipping-time');
    const scores = en.entries.map((entry) => entry.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    const entry = responder.kb.entries.find((candidate) => candidate.id === 'shipping-time');
    expect(en.entries[0]?.parts).to.deep.equal(entry?.answer['en']);
    expect(en.entries[0]?.answer).to.equal(entry?.answer['en']?.[0]?.content);

    const ja = retrieveEntries(responder, '注文をキャンセルしたい', []);
    expect(ja.language).to.equal('ja');
    expect(ja.entries.length).to.be.at.most(6);
    expect(ja.entries[0]?.id).to.equal('cancel-order');
    expect(ja.entries[0]?.parts).to.deep.equal(responder.kb.entries.find((candidate) => candidate.id === 'cancel-order')?.answer['ja']);
  });

  it("brings the earlier question's entry into a follow-up's retrieval", () => {
    const alone = retrieveEntries(responder, 'and at Christmas?', [], 3).entries.map((entry) => entry.id);
    const followUp = retrieveEntries(responder, 'and at Christmas?', ['What are your opening hours?'], 3).entries.map((entry) => entry.id);
    expect(alone).not.to.include('opening-hours');
    expect(followUp[0]).to.equal('opening-hours');
    // both the earlier question's subject and the follow-up's own are among the first
    const japan = retrieveEntries(responder, 'and to Japan?', ['How long does delivery take?'], 3).entries.map((entry) => entry.id);
    expect(japan.slice(0, 2)).to.have.members(['shipping-time', 'international-shipping']);
  });

  it('returns nothing for a text without searchable words, or for K = 0', () => {
    expect(retrieveEntries(responder, 'asdkjh qwpeoiru', []).entries).to.deep.equal([]);
    expect(retrieveEntries(responder, 'How long does delivery take?', [], 0).entries).to.deep.equal([]);
  });

  it("answers in the default language when the file has not the customer's", () => {
    const kb = parseKnowledgeBase(
      'fallback: Sorry\nentries:\n  - id: hours\n    questions: [When are you open?]\n    answer: Nine to five.\n',
      'yaml',
    );
    const retrieval = retrieveEntries(createKnowledgeResponder(kb), '营业时间 open', []);
    expect(retrieval.answerLanguage).to.equal('en');
    expect(retrieval.entries.map((entry) => [entry.id, entry.answer])).to.deep.equal([['hours', 'Nine to five.']]);
  });
});
