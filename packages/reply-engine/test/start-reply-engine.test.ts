import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplyEngine } from '../src/index.js';
import { requestOf, textMessage } from './context-messages.js';

const faq = (answer: string): string =>
  `fallback: "fallback"\nentries:\n  - id: wrap\n    questions: ["Do you offer gift wrapping?"]\n    answer: "${answer}"\n`;

/** The engine start-up the API and the worker share: SIGHUP reloads the knowledge files, close() stops listening. */
describe('startReplyEngine', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reply-engine-start-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reloads the knowledge file on SIGHUP, and leaves SIGHUP alone once closed', async () => {
    const file = join(dir, 'faq.yaml');
    await writeFile(file, faq('Yes, for free.'));
    const signals = new EventEmitter();
    const started = await startReplyEngine(
      { replyEngine: { kind: 'knowledge', knowledgeFile: file }, replyFallback: 'unused' },
      { logger: { warn: () => undefined }, signals, watchIntervalMs: 0 },
    );
    const ask = async (): Promise<string | undefined> =>
      (await started.engine.reply(requestOf(textMessage('customer', 'gift wrapping please')))).content[0]?.content;
    try {
      expect(await ask()).to.equal('Yes, for free.');
      expect(signals.listenerCount('SIGHUP')).to.equal(1);
      await writeFile(file, faq('Yes, for two euros.'));
      expect(await ask(), 'not reloaded before the signal').to.equal('Yes, for free.');
      signals.emit('SIGHUP');
      await waitUntil(async () => (await ask()) === 'Yes, for two euros.', 5000);
    } finally {
      started.close();
    }
    expect(signals.listenerCount('SIGHUP')).to.equal(0);
  });
});
