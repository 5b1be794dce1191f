import { ConfigError } from '@dialog-relay/config';
import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineFromConfig, type ConfiguredEngine } from './internals.js';
import { requestOf, textMessage } from './context-messages.js';

interface LogCall {
  level: 'info' | 'warn';
  message: string;
  meta: Record<string, unknown> | undefined;
}

function recordingLogger(): {
  calls: LogCall[];
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
} {
  const calls: LogCall[] = [];
  return {
    calls,
    info: (message, meta) => calls.push({ level: 'info', message, meta }),
    warn: (message, meta) => calls.push({ level: 'warn', message, meta }),
  };
}

const faq = (answer: string, question = 'Do you offer gift wrapping?'): string =>
  `fallback: "fallback of ${answer}"\nentries:\n  - id: wrap\n    questions: ["${question}"]\n    answer: "${answer}"\n`;

describe('knowledge files per client, loaded once and reloaded', () => {
  let dir: string;
  let engine: ConfiguredEngine | undefined;
  const files: Record<string, string> = {};
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reply-engine-registry-'));
  });
  afterEach(async () => {
    engine?.close();
    engine = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const write = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    files[name] = path;
    return path;
  };
  const build = async (knowledgeFileOf: (client: string) => string | undefined, watchIntervalMs = 0, logger = recordingLogger()) => {
    engine = await createEngineFromConfig(
      { kind: 'knowledge', knowledgeFile: files['default.yaml'] },
      { fallbackText: 'unused', logger, knowledgeFileOf, watchIntervalMs },
    );
    return { engine, logger };
  };
  const ask = async (client: string | undefined, text = 'gift wrapping please'): Promise<string | undefined> => {
    if (!engine) throw new Error('no engine');
    const reply = await engine.reply({ ...requestOf(textMessage('customer', text)), ...(client === undefined ? {} : { client }) });
    return reply.content[0]?.content;
  };

  it('answers each client from its own file, and clients without one (or without a client id) from the default', async () => {
    await write('default.yaml', faq('default wrap'));
    const shopFile = await write('shop.yaml', faq('shop wrap'));
    await build((client) => (client === 'shop' ? shopFile : undefined));
    expect(await ask('shop')).to.equal('shop wrap');
    expect(await ask('other')).to.equal('default wrap');
    expect(await ask(undefined)).to.equal('default wrap');
  });

  it('reads a client file once, on first use', async () => {
    await write('default.yaml', faq('default wrap'));
    const shopFile = await write('shop.yaml', faq('shop wrap'));
    const { logger } = await build(() => shopFile);
    await ask('shop');
    await ask('shop');
    const loads = logger.calls.filter((c) => c.message === 'knowledge file loaded').map((c) => c.meta?.['file']);
    expect(loads).to.deep.equal([files['default.yaml'], shopFile]);
  });

  it('refuses a bad default file at start-up, naming the file', async () => {
    const bad = await write('default.yaml', 'fallback: x\nentries: []\n');
    const outcome = await createEngineFromConfig(
      { kind: 'knowledge', knowledgeFile: bad },
      { fallbackText: '', logger: recordingLogger() },
    ).then(
      () => 'started',
      (error: Error) => error,
    );
    // A ConfigError: the processes answer it like any bad variable (one line, exit 78).
    expect(outcome)
      .to.be.instanceOf(ConfigError)
      .and.to.include({ variable: 'KNOWLEDGE_FILE', message: `KNOWLEDGE_FILE: ${bad}: entries must not be empty` });
  });

  it('answers with the default fallback for a client whose own file cannot be loaded, with a warning naming it', async () => {
    await write('default.yaml', faq('default wrap'));
    const missing = join(dir, 'absent.yaml');
    const { logger } = await build(() => missing);
    expect(await ask('shop')).to.equal('fallback of default wrap');
    const warning = logger.calls.find((c) => c.level === 'warn');
    expect(warning?.message).to.equal('knowledge file refused, clients using it get the fallback answer');
    expect(String(warning?.meta?.['error'])).to.match(/^KNOWLEDGE_FILE: .*absent\.yaml: cannot read/);
  });

  it('reloads every file on reload() (SIGHUP), and keeps the old version when the new one is bad', async () => {
    await write('default.yaml', faq('default wrap'));
    const shopFile = await write('shop.yaml', faq('shop wrap'));
    const { logger } = await build((client) => (client === 'shop' ? shopFile : undefined));
    expect(await ask('shop')).to.equal('shop wrap');

    await write('shop.yaml', faq('new shop wrap'));
    await write('default.yaml', 'fallback: x\nentries:\n  - { id: a, questions: [refund] }\n');
    await engine!.reload();
    expect(await ask('shop')).to.equal('new shop wrap');
    expect(await ask('other')).to.equal('default wrap');
    const refused = logger.calls.find((c) => c.level === 'warn');
    expect(refused?.message).to.equal('knowledge file refused, the previous version stays in use');
    expect(refused?.meta?.['error']).to.equal(`KNOWLEDGE_FILE: ${files['default.yaml']}: entries[0] (id "a").answer is missing`);
  });

  it('reloads a watched file after it changes, also when an editor replaces it', async () => {
    await write('default.yaml', faq('default wrap'));
    const shopFile = await write('shop.yaml', faq('shop wrap'));
    const { logger } = await build(() => shopFile, 20);
    expect(await ask('shop')).to.equal('shop wrap');
    const reloads = () => logger.calls.filter((c) => c.message === 'knowledge file reloaded').length;

    await writeFile(join(dir, 'shop.yaml.tmp'), faq('replaced wrap', 'Can you wrap my gift please?'));
    await rename(join(dir, 'shop.yaml.tmp'), shopFile);
    await waitUntil(() => reloads() === 1, 5000);
    expect(await ask('shop')).to.equal('replaced wrap');

    await writeFile(shopFile, 'not: [valid');
    await waitUntil(() => logger.calls.some((c) => c.level === 'warn'), 5000);
    expect(await ask('shop')).to.equal('replaced wrap');
  });
});
