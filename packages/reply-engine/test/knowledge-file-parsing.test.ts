import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIN_SCORE, loadKnowledgeBase, parseKnowledgeBase } from '../src/index.js';

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
  it('reads YAML with string and part-list answers, trimming text and defaulting min_score', () => {
    const kb = parseKnowledgeBase(VALID_YAML, 'yaml');
    expect(kb.fallback).to.deep.equal([{ type: 'text', content: 'A colleague will answer.' }]);
    expect(kb.minScore).to.equal(DEFAULT_MIN_SCORE);
    expect(kb.entries.map((e) => e.id)).to.deep.equal(['hours', 'catalogue']);
    expect(kb.entries[0]!.answer).to.deep.equal([{ type: 'text', content: '9 to 5.' }]);
    expect(kb.entries[1]!.answer).to.deep.equal([
      { type: 'text', content: 'Here it is.' },
      { type: 'document', content: 'https://shop.example/catalogue.pdf' },
    ]);
  });

  it('reads the same structure from JSON, with min_score and an empty fallback (send nothing)', () => {
    const kb = parseKnowledgeBase(
      JSON.stringify({ fallback: [], min_score: 1.5, entries: [{ id: 'a', questions: ['refund policy'], answer: 'Yes.' }] }),
      'json',
    );
    expect(kb.fallback).to.deep.equal([]);
    expect(kb.minScore).to.equal(1.5);
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

  it('rejects questions without searchable words, duplicate ids, unknown fields and bad min_score', () => {
    expect(parseError('fallback: x\nentries:\n  - { id: a, questions: ["what is it?"], answer: y }\n')).to.include(
      'entries[0] (id "a").questions[0] has no searchable words',
    );
    expect(
      parseError('fallback: x\nentries:\n  - { id: a, questions: [refund], answer: y }\n  - { id: a, questions: [refund], answer: z }\n'),
    ).to.include('entries[1] (id "a").id is a duplicate');
    expect(parseError('fallback: x\nentries:\n  - { id: a, questions: [refund], anwser: y }\n')).to.include('unknown field "anwser"');
    expect(parseError('fallback: x\nmin_score: -1\nentries:\n  - { id: a, questions: [refund], answer: y }\n')).to.include(
      'min_score must be a number >= 0',
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
