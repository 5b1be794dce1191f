import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import {
  createKnowledgeResponder,
  EXAMPLE_KNOWLEDGE_FILE,
  loadKnowledgeBase,
  parseKnowledgeBase,
  type KnowledgeResponder,
} from '@dialog-relay/reply-engine';
import { calibrateThresholds } from '../src/calibrate-thresholds.js';
import { parseEvalCases, type EvalCase } from '../src/eval-cases.js';
import { EVAL_CASES_DIR } from '../src/eval-sets.js';
import { evaluateKnowledge, measureMicrosPerReply } from '../src/evaluate-knowledge.js';
import { formatEvalReport } from '../src/format-eval-report.js';
import { formatRecallReport, measureRecall } from '../src/measure-recall.js';

const SMALL_FAQ = parseKnowledgeBase(
  `
fallback: "A colleague will answer."
entries:
  - id: wrap
    questions: ["Do you offer gift wrapping?", "可以礼品包装吗？"]
    answer: "Yes."
  - id: voucher
    questions: ["Can I buy a gift voucher?", "ギフト券は買えますか？"]
    answer: "Yes, from 10 USD."
`,
  'yaml',
);

describe('knowledge evaluation', () => {
  describe('cases file', () => {
    it('reads one case a line, with the usual key spellings, skipping blank and comment lines', () => {
      const cases = parseEvalCases(
        [
          '{"text": "gift wrapping?", "expected": "wrap", "lang": "en"}',
          '',
          '# a comment',
          '{"message": "天気は？", "entry": null, "language": "JA"}',
          '{"query": "hello", "intent": "fallback"}',
        ].join('\n'),
      );
      expect(cases).to.deep.equal([
        { text: 'gift wrapping?', expected: 'wrap', accepted: ['wrap'], language: 'en', line: 1 },
        { text: '天気は？', expected: undefined, accepted: [], language: 'ja', line: 4 },
        { text: 'hello', expected: undefined, accepted: [], language: undefined, line: 5 },
      ]);
    });

    it('reads a JSON array too, and a list of ids when several entries are right', () => {
      const cases = parseEvalCases('[{"text": "wrap it", "expected": ["wrap", "voucher"]}, {"text": "nothing", "expected": null}]');
      expect(cases.map((c) => [c.expected, c.accepted, c.line])).to.deep.equal([
        ['wrap', ['wrap', 'voucher'], 1],
        [undefined, [], 2],
      ]);
    });

    it('names the line of a bad case', () => {
      expect(() => parseEvalCases('{"text": "a", "expected": "x"}\n{"text": ""}')).to.throw('cases line 2: needs a non-empty "text"');
      expect(() => parseEvalCases('{"text": "a", "expected": 3}')).to.throw(
        'cases line 1: "expected" must be an entry id, a list of ids, or null',
      );
      expect(() => parseEvalCases('not json')).to.throw(/^cases line 1: not JSON/);
      expect(() => parseEvalCases('\n')).to.throw('the cases file has no cases');
    });
  });

  describe('report', () => {
    const responder = createKnowledgeResponder(SMALL_FAQ);
    const caseOf = (text: string, accepted: string[], line: number): EvalCase => ({
      text,
      expected: accepted[0],
      accepted,
      language: undefined,
      line,
    });
    const cases: EvalCase[] = [
      caseOf('do you do gift wrapping', ['wrap'], 1),
      caseOf('礼品包装可以吗', ['wrap'], 2),
      caseOf('can I buy a voucher', ['voucher'], 3),
      caseOf('can I buy a voucher', ['wrap'], 4),
      caseOf('what is the weather', [], 5),
      caseOf('gift wrapping', [], 6),
      caseOf('x', ['no-such-entry'], 7),
    ];

    it('counts accuracy per language, wrong answers, fallbacks on out-of-scope messages and confusions', () => {
      const report = evaluateKnowledge(responder, cases);
      expect(report.cases).to.equal(6);
      expect(report.byLanguage['en']).to.deep.equal({
        answerable: 3,
        correct: 2,
        wrong: 1,
        fallback: 0,
        outOfScope: 2,
        outOfScopeFallback: 1,
      });
      expect(report.byLanguage['zh']).to.deep.equal({
        answerable: 1,
        correct: 1,
        wrong: 0,
        fallback: 0,
        outOfScope: 0,
        outOfScopeFallback: 0,
      });
      expect(report.accuracy).to.equal(3 / 4);
      expect(report.wrongRate).to.equal(2 / 6);
      expect(report.outOfScopeFallbackRate).to.equal(1 / 2);
      expect(report.unknownIds).to.deep.equal(['no-such-entry']);
      expect(report.confusions.map((c) => `${c.expected}→${c.got ?? 'fallback'}`).sort()).to.deep.equal([
        '(out of scope)→wrap',
        'wrap→voucher',
      ]);
      const text = formatEvalReport(report, { microsPerReply: 12.3 });
      expect(text).to.include('top-1 accuracy (answerable):          75.0 %').and.include('12.3 µs').and.include('no-such-entry');
    });

    it('prints "n/a" (null in the report) for a rate whose cases are absent, e.g. a set with no out-of-scope cases', () => {
      const report = evaluateKnowledge(
        responder,
        cases.filter((c) => c.expected !== undefined),
      );
      expect(report.total.outOfScope).to.equal(0);
      expect(report.outOfScopeFallbackRate).to.equal(null);
      expect(JSON.parse(JSON.stringify(report))).to.have.property('outOfScopeFallbackRate', null);
      const text = formatEvalReport(report);
      expect(text).to.include('fallback on out-of-scope messages:    n/a');
      const allRow = text.split('\n').find((line) => line.startsWith('all '))!;
      expect(allRow.trimEnd().endsWith('n/a')).to.equal(true);
      const noAnswerable = evaluateKnowledge(
        responder,
        cases.filter((c) => c.expected === undefined),
      );
      expect(noAnswerable.accuracy).to.equal(null);
      expect(formatEvalReport(noAnswerable)).to.include('top-1 accuracy (answerable):          n/a');
    });

    it('measures the engine time per reply as a positive number of microseconds', () => {
      expect(measureMicrosPerReply(responder, cases, 5)).to.be.above(0);
    });

    it("measures a reply in a conversation with the cases before it as the customer's earlier messages, as the service does", () => {
      const histories: string[][] = [];
      const spy: KnowledgeResponder = {
        ...responder,
        decide: (text, history) => {
          histories.push([text, ...history]);
          return responder.decide(text, history);
        },
      };
      const texts = cases.map((c) => c.text);
      expect(measureMicrosPerReply(spy, cases, 5, { history: 2 })).to.be.above(0);
      // each text with the two before it (the first ones with what precedes them), oldest first
      expect(histories.slice(0, texts.length)).to.deep.equal(texts.map((text, i) => [text, ...texts.slice(Math.max(0, i - 2), i)]));
      histories.length = 0;
      measureMicrosPerReply(spy, cases, 5);
      expect(histories.every((call) => call.length === 1)).to.equal(true);
      expect(formatEvalReport(evaluateKnowledge(responder, cases), { microsPerReply: 3, microsPerReplyInConversation: 4.25 }))
        .to.include('engine time per reply:                3.0 µs')
        .and.include('  with the earlier messages:          4.3 µs');
    });

    it('counts an answer right when it is any of the listed ids', () => {
      const report = evaluateKnowledge(responder, [caseOf('can I buy a voucher', ['wrap', 'voucher'], 1)]);
      expect(report.total.correct).to.equal(1);
      expect(report.confusions).to.deep.equal([]);
    });

    it('counts, per language, how often a right entry is among the K retrieved, leaving out-of-scope and unknown-id cases out', () => {
      const atOne = measureRecall(responder, cases, 1);
      expect(atOne.byLanguage).to.deep.equal({ en: { answerable: 3, found: 2 }, zh: { answerable: 1, found: 1 } });
      expect(atOne.recall).to.equal(3 / 4);
      const atTwo = measureRecall(responder, cases, 2);
      // the wrap entry has no word of "can I buy a voucher": no K finds it
      expect(atTwo.total).to.deep.equal({ answerable: 4, found: 3 });
      expect(formatRecallReport(atOne))
        .to.include('among the first 1 retrieved')
        .and.match(/en\s+3\s+2\s+66\.7 %/);
    });

    it('calibrates thresholds that answer the answerable cases and fall back on the out-of-scope one', () => {
      const calibration = calibrateThresholds(responder, cases.slice(0, 3).concat(cases[4]!));
      expect(calibration.correct).to.equal(3);
      expect(calibration.wrong).to.equal(0);
    });
  });

  describe('the bundled evaluation set', () => {
    const setFile = (part: string): string => `${EVAL_CASES_DIR}example-faq.${part}.jsonl`;

    it('has over 300 messages in English, Chinese and Japanese, with out-of-scope ones, split into calibration and test', async () => {
      const kb = await loadKnowledgeBase(EXAMPLE_KNOWLEDGE_FILE);
      const ids = new Set(kb.entries.map((e) => e.id));
      const questions = new Set(kb.entries.flatMap((e) => e.questions.map((q) => q.toLowerCase())));
      const parts = await Promise.all(['calibration', 'test'].map(async (part) => parseEvalCases(await readFile(setFile(part), 'utf8'))));
      const all = parts.flat();
      expect(all.length).to.be.at.least(300);
      for (const part of parts) {
        for (const language of ['en', 'zh', 'ja']) {
          const ofLanguage = part.filter((c) => c.language === language);
          expect(ofLanguage.filter((c) => c.expected !== undefined).length, language).to.be.at.least(50);
          expect(ofLanguage.filter((c) => c.expected === undefined).length, language).to.be.at.least(10);
        }
      }
      for (const testCase of all) {
        if (testCase.expected !== undefined) expect(ids.has(testCase.expected), testCase.expected).to.equal(true);
        expect(questions.has(testCase.text.toLowerCase()), testCase.text).to.equal(false);
      }
      const calibrationTexts = new Set(parts[0]!.map((c) => c.text));
      expect(parts[1]!.filter((c) => calibrationTexts.has(c.text))).to.deep.equal([]);
    });
  });

  describe('the independent evaluation FAQs', () => {
    const fileOf = (name: string): string => `${EVAL_CASES_DIR}independent/${name}`;

    for (const shop of ['harbor-pine', 'maple-thread', 'copper-kettle', 'birch-lane']) {
      it(`${shop}: a 60-entry FAQ of another shop with 400+ messages whose ids all exist, none copying a phrasing`, async () => {
        const kb = await loadKnowledgeBase(fileOf(`${shop}-faq.yaml`));
        const cases = parseEvalCases(await readFile(fileOf(`${shop}.cases.jsonl`), 'utf8'));
        expect(kb.entries).to.have.length(60);
        expect(cases.length).to.be.at.least(400);
        const ids = new Set(kb.entries.map((e) => e.id));
        const questions = new Set(kb.entries.flatMap((e) => e.questions.map((q) => q.toLowerCase())));
        for (const testCase of cases) {
          if (testCase.expected !== undefined) expect(ids.has(testCase.expected), testCase.expected).to.equal(true);
          expect(questions.has(testCase.text.toLowerCase()), testCase.text).to.equal(false);
        }
        for (const language of ['en', 'zh', 'ja'])
          expect(cases.filter((c) => c.language === language && c.expected === undefined).length, language).to.be.at.least(15);
        const report = evaluateKnowledge(createKnowledgeResponder(kb), cases);
        expect(report.unknownIds).to.deep.equal([]);
      });
    }
  });
});
