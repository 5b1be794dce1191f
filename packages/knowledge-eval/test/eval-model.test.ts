import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, completionBody, startFakeChatServer, type FakeChatServer } from '@dialog-relay/testkit';
import { formatModelReport, type ModelEvalReport } from '../src/evaluate-model.js';

const BIN = fileURLToPath(new URL('../src/bin/eval-knowledge.js', import.meta.url));

const FAQ = `
fallback: "A colleague will answer."
entries:
  - id: wrap
    questions: ["Do you offer gift wrapping?"]
    answer: "Yes, 3 USD."
  - id: voucher
    questions: ["Can I buy a gift voucher?"]
    answer: "Yes, from 10 USD."
`;

/** Seven cases: the fake model answers right, wrongly, hands off, and answers an out-of-scope one. */
const CASES = [
  { text: 'wrap it please', expected: 'wrap', lang: 'en' },
  { text: 'gift voucher?', expected: 'voucher', lang: 'en' },
  { text: 'wrong: voucher for my gift wrap', expected: 'wrap', lang: 'en' },
  { text: 'handoff: 包装', expected: 'wrap', lang: 'zh' },
  { text: 'handoff: weather', expected: null, lang: 'en' },
  { text: 'answer anyway: weather', expected: null, lang: 'en' },
  { text: 'x', expected: 'no-such-entry', lang: 'en' },
]
  .map((c) => JSON.stringify(c))
  .join('\n');

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run eval:knowledge -- --engine openai (fake model on loopback)', () => {
  let dir: string;
  let server: FakeChatServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eval-model-'));
    await writeFile(join(dir, 'faq.yaml'), FAQ);
    await writeFile(join(dir, 'cases.jsonl'), CASES);
    // Answers from the prompt's entry that the customer's words name, as a grounded model would.
    server = await startFakeChatServer((request) => {
      const { messages } = JSON.parse(request.body) as { messages: { content: string }[] };
      const text = messages[messages.length - 1]!.content;
      if (text.startsWith('handoff'))
        return { status: 200, body: completionBody(JSON.stringify({ answer: '', handoff: true, sources: [] })) };
      const source = text.includes('voucher') ? 'voucher' : 'wrap';
      return { status: 200, body: completionBody(JSON.stringify({ answer: 'Sure.', handoff: false, sources: [source] })) };
    });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const env = () => ({ OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-eval', OPENAI_MODEL: 'eval-model', OPENAI_MAX_RETRIES: '0' });

  it('reports answered right by sources[0], handoffs and wrong answers, per language', async () => {
    const { code, stdout, stderr } = await run(
      ['--engine', 'openai', '--file', join(dir, 'faq.yaml'), '--cases', join(dir, 'cases.jsonl'), '--json'],
      env(),
    );
    expect(code, stderr).to.equal(0);
    const report = JSON.parse(stdout) as {
      cases: number;
      byLanguage: Record<string, Record<string, number>>;
      accuracy: number;
      wrongRate: number;
      outOfScopeHandoffRate: number;
      unknownIds: string[];
      model: string;
    };
    expect(report).to.include({ cases: 6, model: 'eval-model', accuracy: 2 / 4, wrongRate: 2 / 6, outOfScopeHandoffRate: 1 / 2 });
    expect(report.byLanguage['en']).to.deep.equal({
      answerable: 3,
      right: 2,
      handoff: 0,
      wrong: 1,
      outOfScope: 2,
      outOfScopeHandoff: 1,
      errors: 0,
    });
    expect(report.byLanguage['zh']).to.deep.equal({
      answerable: 1,
      right: 0,
      handoff: 1,
      wrong: 0,
      outOfScope: 0,
      outOfScopeHandoff: 0,
      errors: 0,
    });
    expect(report.unknownIds).to.deep.equal(['no-such-entry']);
    // Each case was one grounded request: the prompt showed the file's entries.
    const systems = server.requests.map((r) => (JSON.parse(r.body) as { messages: { content: string }[] }).messages[0]!.content);
    expect(systems.some((s) => s.includes('[id: voucher]'))).to.equal(true);
  });

  it('prints a table, and counts a failing endpoint as errors handed off', async () => {
    const table = await run(['--engine', 'openai', '--file', join(dir, 'faq.yaml'), '--cases', join(dir, 'cases.jsonl')], env());
    expect(table.code, table.stderr).to.equal(0);
    expect(table.stdout).to.include('6 messages through model eval-model').and.include('answered right (by sources[0]):       50.0 %');
    const down = await run(['--engine', 'openai', '--file', join(dir, 'faq.yaml'), '--cases', join(dir, 'cases.jsonl'), '--json'], {
      ...env(),
      OPENAI_BASE_URL: `http://127.0.0.1:${await freePort()}/v1`,
    });
    expect(down.code, down.stderr).to.equal(0);
    expect((JSON.parse(down.stdout) as { total: Record<string, number> }).total).to.include({
      errors: 6,
      right: 0,
      wrong: 0,
      outOfScopeHandoff: 2,
    });
    expect(down.stderr).to.include('no usable answer');
  });

  it('prints "n/a" (null in the report) for the out-of-scope handoff rate of a set with no out-of-scope cases', async () => {
    const answerable = CASES.split('\n')
      .filter((line) => !line.includes('"expected":null'))
      .join('\n');
    await writeFile(join(dir, 'answerable.jsonl'), answerable);
    const json = await run(
      ['--engine', 'openai', '--file', join(dir, 'faq.yaml'), '--cases', join(dir, 'answerable.jsonl'), '--json'],
      env(),
    );
    expect(json.code, json.stderr).to.equal(0);
    const report = JSON.parse(json.stdout) as ModelEvalReport;
    expect(report.total.outOfScope).to.equal(0);
    expect(report.outOfScopeHandoffRate).to.equal(null);
    const text = formatModelReport(report, 'eval-model');
    expect(text).to.include('handoff on out-of-scope messages:     n/a');
  });
});
