import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS, loadKnowledgeBase, parseKnowledgeBase } from './internals.js';

function parseError(text: string, format: 'yaml' | 'json' = 'yaml'): string {
  try {
    parseKnowledgeBase(text, format);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected parseKnowledgeBase to throw');
}

const VALID_YAML = `
fallback: "A colleague will answer."
entries:
  - id: hours
    questions: ["What are your opening hours?", "营业时间"]
    answer: "  9 to 5.  "
  - id: catalogue
    questions: ["Do you have a catalogue?"]
    answer:
      - { type: text, content: "Here it is." }
      - { type: document, content: "https://shop.example/catalogue.pdf" }
`;

describe('knowledge file parsing', () => {
  it('reads YAML with string and part-list answers under the default language, trimming text and defaulting the thresholds', () => {
    const kb = parseKnowledgeBase(VALID_YAML, 'yaml');
    expect(kb.defaultLanguage).to.equal('en');
    expect(kb.languages).to.deep.equal(['en']);
    expect(kb.fallback).to.deep.equal({ en: [{ type: 'text', content: 'A colleague will answer.' }] });
    expect(kb.thresholds).to.deep.equal(DEFAULT_THRESHOLDS);
    expect(kb.entries.map((e) => e.id)).to.deep.equal(['hours', 'catalogue']);
    expect(kb.entries[0]!.answer).to.deep.equal({ en: [{ type: 'text', content: '9 to 5.' }] });
    expect(kb.entries[1]!.answer).to.deep.equal({
      en: [
        { type: 'text', content: 'Here it is.' },
        { type: 'document', content: 'https://shop.example/catalogue.pdf' },
      ],
    });
  });

  it('reads answers and the fallback as maps by language, and the default language', () => {
    const kb = parseKnowledgeBase(
      `
default_language: zh
fallback: { zh: "同事会回复您。", EN: "A colleague will answer." }
entries:
  - id: hours
    questions: ["营业时间"]
    answer:
      zh: "九点到五点。"
      ja: [{ type: text, content: "9時から5時です。" }, { type: image, content: "https://x.example/hours.png" }]
  - id: plain
    questions: ["refund"]
    answer: "退款。"
`,
      'yaml',
    );
    expect(kb.defaultLanguage).to.equal('zh');
    expect(kb.fallback).to.deep.equal({
      zh: [{ type: 'text', content: '同事会回复您。' }],
      en: [{ type: 'text', content: 'A colleague will answer.' }],
    });
    expect(kb.entries[0]!.answer['ja']).to.have.length(2);
    expect(kb.entries[1]!.answer).to.deep.equal({ zh: [{ type: 'text', content: '退款。' }] });
    expect([...kb.languages].sort()).to.deep.equal(['en', 'ja', 'zh']);
  });

  it('rejects a language map with a key that is not a language code, naming the entry', () => {
    expect(parseError('fallback: x\nentries:\n  - { id: a, questions: [refund], answer: { english: y } }\n')).to.include(
      'entries[0] (id "a").answer has "english", not a language code',
    );
    expect(parseError('default_language: 7\nfallback: x\nentries:\n  - { id: a, questions: [refund], answer: y }\n')).to.include(
      'default_language must be a language code',
    );
  });

  it('reads the same structure from JSON, with thresholds and an empty fallback (send nothing)', () => {
    const kb = parseKnowledgeBase(
      JSON.stringify({
        fallback: [],
        confidence: { min_score: 1.5, min_margin: 0.3, min_coverage: 0.2 },
        entries: [{ id: 'a', questions: ['refund policy'], answer: 'Yes.' }],
      }),
      'json',
    );
    expect(kb.fallback).to.deep.equal({ en: [] });
    expect(kb.thresholds).to.deep.equal({ minScore: 1.5, minMargin: 0.3, minCoverage: 0.2 });
  });

  it('refuses a top-level min_score, naming where the threshold goes (confidence: { min_score })', () => {
    expect(parseError('fallback: x\nmin_score: 4\nentries:\n  - { id: a, questions: [refund], answer: y }\n')).to.equal(
      'KNOWLEDGE_FILE: min_score is not a top-level field: the thresholds go under confidence: (confidence: { min_score: 4 })',
    );
  });

  it('names the entry index, id and field when the answer is missing', () => {
    const message = parseError(`
fallback: x
entries:
  - { id: ok, questions: [refund], answer: fine }
  - { id: broken, questions: [shipping] }
`);
    expect(message).to.match(/^KNOWLEDGE_FILE: /);
    expect(message).to.include('entries[1]').and.include('"broken"').and.include('.answer').and.include('missing');
  });

  it('rejects empty questions, naming the entry', () => {
    const message = parseError('fallback: x\nentries:\n  - { id: a, questions: [], answer: y }\n');
    expect(message).to.match(/^KNOWLEDGE_FILE: entries\[0\] \(id "a"\)\.questions must not be empty/);
  });

  it('rejects an unknown part type, naming entry, part index and field', () => {
    const message = parseError(`
fallback: x
entries:
  - id: a
    questions: [refund]
    answer: [{ type: video, content: "https://x.example/v.mp4" }]
`);
    expect(message).to.match(/^KNOWLEDGE_FILE: entries\[0\] \(id "a"\)\.answer\[0\]\.type has unknown part type "video"/);
  });

  it('rejects questions without searchable words, duplicate ids, unknown fields and bad thresholds', () => {
    expect(parseError('fallback: x\nentries:\n  - { id: a, questions: ["what is it?"], answer: y }\n')).to.include(
      'entries[0] (id "a").questions[0] has no searchable words',
    );
    expect(
      parseError('fallback: x\nentries:\n  - { id: a, questions: [refund], answer: y }\n  - { id: a, questions: [refund], answer: z }\n'),
    ).to.include('entries[1] (id "a").id is a duplicate');
    expect(parseError('fallback: x\nentries:\n  - { id: a, questions: [refund], anwser: y }\n')).to.include('unknown field "anwser"');
    expect(parseError('fallback: x\nconfidence: { min_score: -1 }\nentries:\n  - { id: a, questions: [refund], answer: y }\n')).to.include(
      'confidence.min_score must be a number from 0 to 1000',
    );
    expect(parseError('fallback: x\nconfidence: { min_margin: 2 }\nentries:\n  - { id: a, questions: [refund], answer: y }\n')).to.include(
      'confidence.min_margin must be a number from 0 to 1',
    );
    expect(parseError('fallback: x\nconfidence: { margin: 0.1 }\nentries:\n  - { id: a, questions: [refund], answer: y }\n')).to.include(
      'confidence has unknown field "margin"',
    );
  });

  it('rejects a missing fallback, missing entries and unparsable text', () => {
    expect(parseError('entries:\n  - { id: a, questions: [refund], answer: y }\n')).to.equal('KNOWLEDGE_FILE: fallback is missing');
    expect(parseError('fallback: x\n')).to.equal('KNOWLEDGE_FILE: entries is missing');
    expect(parseError('fallback: [unclosed', 'yaml')).to.match(/^KNOWLEDGE_FILE: invalid YAML: /);
    expect(parseError('{"fallback": ', 'json')).to.match(/^KNOWLEDGE_FILE: invalid JSON: /);
  });

  describe('loadKnowledgeBase', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'reply-engine-kb-'));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('chooses the format by extension (.yaml, .yml, .json)', async () => {
      await writeFile(join(dir, 'faq.yml'), VALID_YAML);
      const json = JSON.stringify({ fallback: 'x', entries: [{ id: 'a', questions: ['refund'], answer: 'y' }] });
      await writeFile(join(dir, 'faq.json'), json);
      expect((await loadKnowledgeBase(join(dir, 'faq.yml'))).entries).to.have.length(2);
      expect((await loadKnowledgeBase(join(dir, 'faq.json'))).entries).to.have.length(1);
    });

    it('names the file in errors, and rejects other extensions and missing files', async () => {
      const file = join(dir, 'bad.yaml');
      await writeFile(file, 'fallback: x\nentries:\n  - { id: a, questions: [refund] }\n');
      const failure = async (path: string): Promise<string> =>
        loadKnowledgeBase(path).then(
          () => 'resolved',
          (error: Error) => error.message,
        );
      expect(await failure(file)).to.equal(`KNOWLEDGE_FILE: ${file}: entries[0] (id "a").answer is missing`);
      expect(await failure(join(dir, 'faq.txt'))).to.match(/^KNOWLEDGE_FILE: .*unsupported extension "\.txt"/);
      expect(await failure(join(dir, 'absent.yaml'))).to.match(/^KNOWLEDGE_FILE: .*absent\.yaml: cannot read/);
    });
  });
});
