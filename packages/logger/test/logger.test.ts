import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { createLogger } from '../src/index.js';

function capture(): { lines: () => Record<string, unknown>[]; stream: PassThrough } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('logger', () => {
  it('writes one JSON line with the child fields of the request', async () => {
    const out = capture();
    const logger = createLogger({ level: 'info', service: 'api', stream: out.stream });
    logger.child({ request_id: 'r-1', conversation_id: 'c_1' }).info('accepted', { status: 202 });
    await new Promise((resolve) => setImmediate(resolve));
    const [line] = out.lines();
    expect(line).to.include({ message: 'accepted', level: 'info', service: 'api', request_id: 'r-1', conversation_id: 'c_1', status: 202 });
    expect(line).to.have.property('timestamp');
  });

  it('never writes a secret or a signature, however deep', async () => {
    const out = capture();
    const logger = createLogger({ level: 'info', service: 'api', stream: out.stream });
    logger.info('body', {
      body: { client: 'demo', secret: 'hunter2', signature: 'abcd', message_info: { nested: { apiKey: 'k-123' } } },
      signature: 'top',
    });
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(out.lines());
    expect(text).to.not.include('hunter2');
    expect(text).to.not.include('abcd');
    expect(text).to.not.include('k-123');
    expect(text).to.not.include('"top"');
    expect(text).to.include('demo');
  });

  it('never writes a secret member whatever its letter case', async () => {
    const out = capture();
    const logger = createLogger({ level: 'info', service: 'api', stream: out.stream });
    logger.info('body', {
      body: { Secret: 'hunter3', SIGNATURE: 'efgh', headers: { Authorization: 'Bearer tok-456' }, WEBHOOK_SECRET: 'whsec_x' },
      client: 'demo',
    });
    await new Promise((resolve) => setImmediate(resolve));
    const text = JSON.stringify(out.lines());
    for (const value of ['hunter3', 'efgh', 'tok-456', 'whsec_x']) expect(text).to.not.include(value);
    expect(text).to.include('demo');
  });

  it('drops lines below the level', async () => {
    const out = capture();
    const logger = createLogger({ level: 'warn', service: 'api', stream: out.stream });
    logger.info('hidden');
    logger.warn('shown');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.lines().map((l) => l['message'])).to.deep.equal(['shown']);
  });

  it('says which levels are written, asked again and in a child alike', () => {
    const levels = ['error', 'warn', 'info', 'debug'] as const;
    for (const [level, expected] of [
      ['warn', [true, true, false, false]],
      ['debug', [true, true, true, true]],
    ] as const) {
      const logger = createLogger({ level, service: 'api', stream: new PassThrough() });
      for (const asked of [logger, logger, logger.child({ request_id: 'r-1' })])
        expect(levels.map((l) => asked.enabled(l))).to.deep.equal(expected);
    }
  });
});
