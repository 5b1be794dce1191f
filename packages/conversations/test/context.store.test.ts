import { expect } from 'chai';
import type { ContextMessage } from '@dialog-relay/contracts';
import { createRedisKeys, createRequestRedis, runSteps, waitForRedis, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { createContextStore, type ContextStore } from '../src/index.js';

const msg = (id: string, text = `text of ${id}`): ContextMessage => ({
  msg_id: id,
  role: 'customer',
  from_user_id: 'u1',
  content: [{ type: 'text', content: text }],
  event_type: 'auto_dialog',
  create_timestamp: 1_700_000_000,
});
const ids = (messages: ContextMessage[]): string[] => messages.map((m) => m.msg_id);
const range = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `m${from + i}`);

describe('context store', () => {
  let redis: Redis;
  let other: Redis;
  before(async () => {
    redis = createRequestRedis(testRedisUrl(), { name: 'conversations-test' });
    other = createRequestRedis(testRedisUrl(), { name: 'conversations-test-2' });
    await waitForRedis(redis, 5000);
    await waitForRedis(other, 5000);
  });
  after(async () => {
    await redis.quit();
    await other.quit();
  });

  let keys: RedisKeys;
  let store: ContextStore;
  const conv = 'c_test';
  beforeEach(() => {
    keys = createRedisKeys(uniquePrefix('ctx'));
    store = createContextStore({ redis, keys, maxMessages: 50, ttlSeconds: 600 });
  });

  it('reads nothing for an unknown conversation', async () => {
    expect(await store.read(conv)).to.deep.equal([]);
    expect(await store.read(conv, 5)).to.deep.equal([]);
  });

  it('records messages in order and reads them back whole', async () => {
    expect(await store.record(conv, [msg('a'), msg('b')])).to.equal(2);
    expect(await store.record(conv, [msg('c')])).to.equal(1);
    expect(await store.read(conv)).to.deep.equal([msg('a'), msg('b'), msg('c')]);
    expect(await store.read('c_other')).to.deep.equal([]);
  });

  it('deduplicates by msg_id without replacing or moving the first copy', async () => {
    expect(await store.record(conv, [msg('a'), msg('b')])).to.equal(2);
    expect(await store.record(conv, [msg('a', 'changed')])).to.equal(0);
    expect(await store.record(conv, [msg('c'), msg('a', 'again'), msg('c')])).to.equal(1);
    expect(await store.read(conv)).to.deep.equal([msg('a'), msg('b'), msg('c')]);
    expect(await redis.llen(keys.contextOrder(conv))).to.equal(3);
    expect(await redis.hlen(keys.contextMessages(conv))).to.equal(3);
  });

  it('keeps only the last maxMessages, one at a time', async () => {
    for (const id of range(0, 60)) await store.record(conv, [msg(id)]);
    expect(ids(await store.read(conv))).to.deep.equal(range(10, 60));
    expect(await redis.llen(keys.contextOrder(conv))).to.equal(50);
    expect(await redis.hlen(keys.contextMessages(conv))).to.equal(50);
    expect(await redis.hexists(keys.contextMessages(conv), 'm9')).to.equal(0);
  });

  it('keeps only the last maxMessages of one large batch', async () => {
    expect(
      await store.record(
        conv,
        range(0, 60).map((id) => msg(id)),
      ),
    ).to.equal(60);
    expect(ids(await store.read(conv))).to.deep.equal(range(10, 60));
    expect(await redis.hlen(keys.contextMessages(conv))).to.equal(50);
  });

  it('trims correctly with a cap above the scripts chunk size', async () => {
    const big = createContextStore({ redis, keys, maxMessages: 1200, ttlSeconds: 600 });
    expect(
      await big.record(
        conv,
        range(0, 1300).map((id) => msg(id)),
      ),
    ).to.equal(1300);
    expect(ids(await big.read(conv))).to.deep.equal(range(100, 1300));
    expect(ids(await big.read(conv, 700))).to.deep.equal(range(600, 1300));
    expect(await redis.hlen(keys.contextMessages(conv))).to.equal(1200);
  });

  it('reads the last limit messages, oldest first', async () => {
    await store.record(
      conv,
      range(0, 5).map((id) => msg(id)),
    );
    expect(ids(await store.read(conv, 2))).to.deep.equal(['m3', 'm4']);
    expect(ids(await store.read(conv, 1))).to.deep.equal(['m4']);
    expect(ids(await store.read(conv, 5))).to.deep.equal(range(0, 5));
    expect(ids(await store.read(conv, 99))).to.deep.equal(range(0, 5));
    expect(await store.read(conv, 0)).to.deep.equal([]);
  });

  it('rejects a bad limit, a missing msg_id and a bad configuration', async () => {
    await store.record(conv, [msg('a')]);
    for (const limit of [-1, 1.5, Number.NaN]) {
      let error: unknown;
      await store.read(conv, limit).catch((e: unknown) => (error = e));
      expect(error, `limit ${limit}`).to.be.instanceOf(RangeError);
    }
    let error: unknown;
    await store.record(conv, [msg('b'), msg('')]).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(TypeError);
    expect(ids(await store.read(conv))).to.deep.equal(['a']);
    expect(() => createContextStore({ redis, keys, maxMessages: 0, ttlSeconds: 600 })).to.throw(RangeError);
    expect(() => createContextStore({ redis, keys, maxMessages: 50, ttlSeconds: 0 })).to.throw(RangeError);
  });

  it('sets the TTL on both keys', async () => {
    await store.record(conv, [msg('a')]);
    for (const key of [keys.contextOrder(conv), keys.contextMessages(conv)]) {
      expect(await redis.pttl(key), key).to.be.within(590_000, 600_000);
    }
  });

  it('refreshes the TTL of both keys on each record', async () => {
    await store.record(conv, [msg('a')]);
    const both = [keys.contextOrder(conv), keys.contextMessages(conv)];
    for (const key of both) await redis.pexpire(key, 5_000);
    await store.record(conv, [msg('b')]);
    for (const key of both) expect(await redis.pttl(key), key).to.be.within(590_000, 600_000);
    for (const key of both) await redis.pexpire(key, 5_000);
    expect(await store.record(conv, [msg('b')])).to.equal(0);
    for (const key of both) expect(await redis.pttl(key), key).to.be.within(590_000, 600_000);
  });

  it('uses a small TTL as given', async () => {
    const short = createContextStore({ redis, keys, maxMessages: 50, ttlSeconds: 2 });
    await short.record(conv, [msg('a')]);
    for (const key of [keys.contextOrder(conv), keys.contextMessages(conv)]) {
      expect(await redis.pttl(key), key).to.be.within(1, 2_000);
    }
  });

  it('keeps one copy when the same msg_id is recorded concurrently', async () => {
    const second = createContextStore({ redis: other, keys, maxMessages: 50, ttlSeconds: 600 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? store : second).record(conv, [msg('dup', `copy ${i}`)])),
    );
    expect(results.reduce((a, b) => a + b, 0)).to.equal(1);
    expect(ids(await store.read(conv))).to.deep.equal(['dup']);
    expect(await redis.llen(keys.contextOrder(conv))).to.equal(1);
    expect(await redis.hlen(keys.contextMessages(conv))).to.equal(1);
  });

  it('round-trips non-ASCII content and ids', async () => {
    const message: ContextMessage = {
      msg_id: '消息-ü-1',
      role: 'agent',
      from_user_id: '用户 😀',
      content: [
        { type: 'text', content: '你好，世界 👋 — "quoted" \\ back\nslash\u0000' },
        { type: 'image', content: 'https://example.com/图片.png' },
      ],
      event_type: 'assist_dialog',
      create_timestamp: 1_700_000_123,
    };
    expect(await store.record(conv, [message])).to.equal(1);
    expect(await store.read(conv)).to.deep.equal([message]);
    expect(await store.record(conv, [message])).to.equal(0);
  });

  it("records one or two messages as a request script's step, each once, with a quote and non-ASCII text kept, and refuses three", async () => {
    const [one] = await runSteps(redis, [store.recordStep(conv, [msg('s1', 'say "hi" — 你好')])]);
    const [two] = await runSteps(redis, [store.recordStep(conv, [msg('s2'), msg('s3', '{"role":"bot"}')])]);
    const [again] = await runSteps(redis, [store.recordStep(conv, [msg('s3'), msg('s4')])]);
    expect([one, two, again]).to.deep.equal([1, 2, 1]);
    const read = await store.read(conv);
    expect(ids(read)).to.deep.equal(['s1', 's2', 's3', 's4']);
    expect(read[0]).to.deep.equal(msg('s1', 'say "hi" — 你好'));
    expect(read[2]).to.deep.equal(msg('s3', '{"role":"bot"}'));
    const three = [msg('a'), msg('b'), msg('c')] as unknown as [ContextMessage];
    expect(() => store.recordStep(conv, three)).to.throw(RangeError, 'one or two messages');
  });

  it("reads only the customer's latest messages with text among the last limit, when asked for them, in one script or as a step", async () => {
    const other = (id: string, role: ContextMessage['role'], content: ContextMessage['content']): ContextMessage => ({
      ...msg(id),
      role,
      content,
    });
    await store.record(conv, [
      msg('c1'),
      msg('c2'),
      other('a1', 'agent', [{ type: 'text', content: 'an agent' }]),
      other('f1', 'customer', [{ type: 'image', content: 'https://files.test/a.png' }]),
      other('b1', 'bot', [{ type: 'text', content: 'a reply' }]),
      other('b2', 'bot', [{ type: 'text', content: 'another' }]),
      other('b3', 'bot', [{ type: 'text', content: 'and one more' }]),
    ]);
    expect(ids(await store.read(conv, 10, 2))).to.deep.equal(['c1', 'c2']);
    expect(ids(await store.read(conv, 10, 1))).to.deep.equal(['c2']);
    expect(ids(await store.read(conv, 10, 0))).to.deep.equal([]);
    expect(ids(await store.read(conv, 5, 2))).to.deep.equal([]);
    expect(ids(await store.read(conv, undefined, 5))).to.deep.equal(['c1', 'c2']);
    expect(ids(await store.read(conv, 10))).to.deep.equal(['c1', 'c2', 'a1', 'f1', 'b1', 'b2', 'b3']);
    const [stepped] = await runSteps(redis, [store.readStep(conv, 10, 2)]);
    expect(ids(store.readReply(stepped))).to.deep.equal(['c1', 'c2']);
  });

  it('records nothing for an empty batch', async () => {
    expect(await store.record(conv, [])).to.equal(0);
    expect(await redis.exists(keys.contextOrder(conv), keys.contextMessages(conv))).to.equal(0);
  });

  it('works on a connection shared by several stores and across a SCRIPT FLUSH', async () => {
    const again = createContextStore({ redis, keys, maxMessages: 50, ttlSeconds: 600 });
    await store.record(conv, [msg('a')]);
    await redis.script('FLUSH');
    expect(await again.record(conv, [msg('b')])).to.equal(1);
    expect(ids(await store.read(conv))).to.deep.equal(['a', 'b']);
  });
});
