import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import winston from 'winston';
import { createLogger } from '../src/index.js';
import { REDACTED_KEYS, redact } from '../src/redact.js';

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

/** What the lines held before the one-step format: winston's timestamp, the redaction, logform's json. */
function formerLogger(stream: PassThrough): winston.Logger {
  const redactFormat = winston.format((info) => {
    for (const key of Object.keys(info)) {
      if (REDACTED_KEYS.has(key.toLowerCase())) info[key] = '[redacted]';
      else if (key !== 'level' && key !== 'message') info[key] = redact(info[key]);
    }
    return info;
  });
  return winston.createLogger({
    level: 'debug',
    defaultMeta: { service: 'api' },
    format: winston.format.combine(winston.format.timestamp(), redactFormat(), winston.format.json()),
    transports: [new winston.transports.Stream({ stream })],
  });
}

describe('logger line', () => {
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic['self'] = cyclic;
  const deep = { a: { b: { c: { d: { e: { f: { g: { h: 'too deep' } } } } } } } };
  const cases: [string, Record<string, unknown> | undefined][] = [
    [
      'request',
      {
        request_id: 'r-1',
        method: 'POST',
        path: '/custom-im/chat-messages',
        status: 200,
        client: 'demo',
        event_type: 'assist_dialog',
        conversation_id: 'c_1',
      },
    ],
    ['no fields', undefined],
    ['undefined and null', { client: undefined, status: null, n: 0, f: 1.5, t: true }],
    ['secrets', { Secret: 's1', nested: { webhook_secret: 's2', list: [{ token: 's3' }, 'plain'] }, Authorization: 'Bearer x' }],
    ['an error', { err: new TypeError('boom'), errors: [new Error('one')] }],
    ['a bigint', { count: 12345678901234567890n, nested: { big: 1n } }],
    ['text', { text: '你好 "quoted" \\ \n\t\u0001 \u2028 emoji 🙂 lone \ud800' }],
    ['depth', { deep }],
    ['a cycle', { cyclic }],
    ['a buffer and a date', { bytes: Buffer.from('ab'), at: new Date(0) }],
  ];

  it('holds what winston’s timestamp, the redaction and logform’s json held, field for field', async () => {
    const before = capture();
    const after = capture();
    const former = formerLogger(before.stream);
    const logger = createLogger({ level: 'debug', service: 'api', stream: after.stream });
    for (const [message, meta] of cases) {
      former.info(message, meta === undefined ? undefined : { ...meta });
      logger.info(message, meta === undefined ? undefined : { ...meta });
    }
    await new Promise((resolve) => setImmediate(resolve));
    const withoutTime = (lines: Record<string, unknown>[]) =>
      lines.map(({ timestamp, ...rest }) => {
        expect(timestamp)
          .to.be.a('string')
          .and.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        return rest;
      });
    const expected = withoutTime(before.lines());
    expect(expected).to.have.length(cases.length);
    expect(withoutTime(after.lines())).to.deep.equal(expected);
  });

  it('starts with the time, the level and the message, then the service and the fields as given', async () => {
    const out = capture();
    createLogger({ level: 'info', service: 'worker', stream: out.stream })
      .child({ delivery_id: 'd-1' })
      .warn('delivery attempt', { status: 503, attempt: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(Object.keys(out.lines()[0]!)).to.deep.equal(['timestamp', 'level', 'message', 'service', 'delivery_id', 'status', 'attempt']);
  });
});
