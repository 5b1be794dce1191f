import { expect } from 'chai';
import type { Socket } from 'node:net';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { Command, ReplyError, type Redis as IoRedis } from 'ioredis';
import { createRedis, defineLuaScript, leanCommandWritableInstalled, runScript, waitForRedis, type Redis } from '../src/index.js';

/** RESP's array of bulk strings, as the Redis protocol spells a command: what every command must put on the wire. */
const resp = (...parts: string[]): Buffer =>
  Buffer.from(`*${parts.length}\r\n${parts.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join('')}`, 'utf8');

/** Records every chunk written to `socket` from now on. */
function tapWrites(socket: Socket): unknown[] {
  const chunks: unknown[] = [];
  const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
  (socket as unknown as { write: typeof write }).write = (chunk, ...rest) => {
    chunks.push(chunk);
    return write(chunk, ...rest);
  };
  return chunks;
}

const streamOf = (redis: Redis): Socket => (redis as unknown as { stream: Socket }).stream;

const ECHO = defineLuaScript({
  name: 'echo-arguments',
  keys: ['target'],
  args: ['first', 'second'],
  source: `--[[
KEYS[1] target  a key the script names and does not touch
ARGV[1] first   echoed
ARGV[2] second  echoed
Returns: { first, second }
]]
return { ARGV[1], ARGV[2] }`,
});

/**
 * ioredis 6.0.0 builds each command's bytes as a string, one concatenation a part: a rope the socket
 * then flattens into a copy of the whole command before it encodes it (docs/design/performance-log.md,
 * fifteenth session). The service's connections write each command as one Buffer instead, the same
 * bytes, encoded once.
 */
describe('commands written as bytes (one Buffer a command, no string for the socket to copy)', () => {
  const opened: Redis[] = [];
  const open = async (role: 'worker' | 'request' = 'worker'): Promise<Redis> => {
    const redis = createRedis({ target: { mode: 'single', url: testRedisUrl() }, password: undefined, tls: false }, role, {
      name: 'test-command-writable',
    });
    opened.push(redis);
    await waitForRedis(redis, 5000);
    return redis;
  };
  after(() => opened.forEach((redis) => redis.disconnect()));

  const values: [string, string][] = [
    ['ascii', 'hello'],
    ['empty', ''],
    ['chinese', '退货政策是什么？'],
    ['emoji', 'ok 👍🏽 done'],
    ['long', `${'长'.repeat(30_000)}${'x'.repeat(10_000)}`],
  ];

  it('is installed by the connection factory for the reviewed ioredis', async () => {
    await open();
    expect(leanCommandWritableInstalled()).to.equal(true);
  });

  it('puts each command on the wire as one Buffer holding exactly its RESP bytes', async () => {
    const redis = await open();
    const prefix = uniquePrefix('writable');
    const chunks = tapWrites(streamOf(redis));
    for (const [name, value] of values) await redis.set(`${prefix}${name}`, value);
    await redis.incrby(`${prefix}n`, 42);
    expect(chunks).to.have.length(values.length + 1);
    chunks.forEach((chunk) => expect(Buffer.isBuffer(chunk), `a ${typeof chunk} was written`).to.equal(true));
    values.forEach(([name, value], i) => expect((chunks[i] as Buffer).equals(resp('set', `${prefix}${name}`, value))).to.equal(true));
    expect((chunks.at(-1) as Buffer).equals(resp('incrby', `${prefix}n`, '42'))).to.equal(true);
    for (const [name, value] of values) expect(await redis.get(`${prefix}${name}`)).to.equal(value);
    await redis.del(...values.map(([name]) => `${prefix}${name}`), `${prefix}n`);
  });

  it('encodes a lone surrogate as the replacement character, as a string write does', async () => {
    const redis = await open();
    const key = `${uniquePrefix('writable')}lone`;
    const chunks = tapWrites(streamOf(redis));
    await redis.set(key, 'a\ud800b');
    expect((chunks[0] as Buffer).equals(resp('set', key, 'a\ufffdb'))).to.equal(true);
    expect(await redis.get(key)).to.equal('a\ufffdb');
    await redis.del(key);
  });

  it("hands a command back to ioredis's own spelling rather than send a byte it did not write", async () => {
    await open(); // installed by the factory
    const command = new Command('set', ['k', 'v']) as unknown as { toWritable(socket: unknown): string | Buffer };
    const shipped = Object.getOwnPropertyDescriptor(Buffer, 'byteLength')!;
    const count = shipped.value as (text: string) => number;
    // a count the encoder would not match: one more byte than 'v' has
    Object.defineProperty(Buffer, 'byteLength', { ...shipped, value: (text: string) => (text === 'v' ? 2 : count(text)) });
    let written: string | Buffer;
    try {
      written = command.toWritable({});
    } finally {
      Object.defineProperty(Buffer, 'byteLength', shipped);
    }
    expect(typeof written).to.equal('string');
    expect(Buffer.isBuffer(command.toWritable({}))).to.equal(true);
  });

  it('spells a command with Buffer arguments (BullMQ’s msgpack) into one Buffer of exactly its RESP bytes', () => {
    const binary = Buffer.from([0, 255, 13, 10, 36, 42]);
    const large = Buffer.alloc(70_000, 0xab);
    const args: (string | Buffer)[] = ['key:一', binary, '', Buffer.alloc(0), 'x\ud800y', large, '👍🏽', '12'];
    const command = new Command('evalsha', [...args]);
    const written = command.toWritable({}) as unknown;
    expect(Buffer.isBuffer(written)).to.equal(true);
    const bulk = (part: Buffer): Buffer => Buffer.concat([Buffer.from(`$${part.length}\r\n`), part, Buffer.from('\r\n')]);
    const expected = Buffer.concat([
      Buffer.from(`*${args.length + 1}\r\n`),
      bulk(Buffer.from('evalsha')),
      ...args.map((arg) => bulk(typeof arg === 'string' ? Buffer.from(arg, 'utf8') : arg)),
    ]);
    expect((written as Buffer).equals(expected)).to.equal(true);
  });

  it('keeps scripts, pipelines, transactions, Buffer arguments and reply errors as they were', async () => {
    const redis = await open('request');
    const prefix = uniquePrefix('writable');
    expect(await runScript(redis, ECHO, { target: `${prefix}t` }, { first: '一', second: 2 })).to.deep.equal(['一', '2']);
    const binary = Buffer.from([0, 255, 13, 10, 36]);
    const piped = await redis.pipeline().set(`${prefix}a`, '阿').set(`${prefix}b`, binary).get(`${prefix}a`).getBuffer(`${prefix}b`).exec();
    expect(piped?.map(([error, answer]) => [error, answer])).to.deep.equal([
      [null, 'OK'],
      [null, 'OK'],
      [null, '阿'],
      [null, binary],
    ]);
    const transaction = await redis.multi().incr(`${prefix}c`).incrby(`${prefix}c`, 5).exec();
    expect(transaction?.map(([, answer]) => answer)).to.deep.equal([1, 6]);
    const wrongType = await redis.incr(`${prefix}a`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(wrongType).to.be.instanceOf(ReplyError);
    (redis as IoRedis).defineCommand('writableJoin', { numberOfKeys: 1, lua: "return KEYS[1] .. '|' .. ARGV[1]" });
    const joined = await (redis as unknown as { writableJoin(key: string, arg: string): Promise<string> }).writableJoin(`${prefix}k`, 'ü');
    expect(joined).to.equal(`${prefix}k|ü`);
    await redis.del(`${prefix}a`, `${prefix}b`, `${prefix}c`);
  });
});
