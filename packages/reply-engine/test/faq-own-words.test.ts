import { expect } from 'chai';
import {
  createKnowledgeEngine,
  createKnowledgeResponder,
  EXAMPLE_KNOWLEDGE_FILE,
  loadKnowledgeBase,
  type KnowledgeBase,
  type KnowledgeResponder,
} from './internals.js';
import { requestOf, textMessage } from './context-messages.js';

/** The questions the README and the demo (scripts/demo.mjs) show, with the entry each must get. */
const SHOWCASE: ReadonlyArray<readonly [string, string]> = [
  ['When are you open?', 'opening-hours'],
  ['你好, what are your opening hours?', 'opening-hours'],
  ['How long does delivery take?', 'shipping-time'],
  ['Where is my order?', 'order-status'],
  ['I want to return my order', 'returns-refunds'],
  ['Can I return my order?', 'returns-refunds'],
  ['How do I return an item?', 'returns-refunds'],
];

describe("the FAQ's own words", () => {
  let kb: KnowledgeBase;
  let responder: KnowledgeResponder;
  before(async () => {
    kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
    responder = createKnowledgeResponder(kb);
  });

  it('answers every phrasing of the bundled FAQ with its own entry, whatever the margin', () => {
    const missed: string[] = [];
    let phrasings = 0;
    for (const entry of kb.entries) {
      for (const question of entry.questions) {
        phrasings += 1;
        const got = responder.decide(question, []).entry?.id;
        if (got !== entry.id) missed.push(`${JSON.stringify(question)}: ${entry.id} expected, got ${got ?? 'the fallback'}`);
      }
    }
    expect(phrasings).to.be.above(1000);
    expect(missed).to.deep.equal([]);
  });

  it("answers the README's and the demo's showcase questions with their entry, through the engine", async () => {
    const engine = createKnowledgeEngine(kb);
    for (const [text, id] of SHOWCASE) {
      const entry = kb.entries.find((candidate) => candidate.id === id);
      // An answer, not a handoff, naming its entry as the source (docs/service-rules.md §17).
      expect(await engine.reply(requestOf(textMessage('customer', text), [])), text).to.deep.equal({
        content: entry?.answer['en'],
        handoff: false,
        sources: [id],
        outcome: 'answered',
      });
    }
  });
});
