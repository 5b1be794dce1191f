import { createAdmission, ADMISSION_SCRIPTS } from '@dialog-relay/admission';
import { loadConfig } from '@dialog-relay/config';
import { CONTEXT_SCRIPTS, createContextStore } from '@dialog-relay/conversations';
import { createRedis, createRedisKeys, scriptConventionProblems, slotOf, waitForRedis, type Redis } from '@dialog-relay/redis';
import {
  createAttemptStore,
  createDeliveryStore,
  createTurnStore,
  newDeliveryId,
  REPLY_SCRIPTS,
  settleScript,
  takeScript,
  type DeliveryRecord,
  type DueMessage,
} from '@dialog-relay/replies';
import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { createHash } from 'node:crypto';

const ALL_SCRIPTS = [...ADMISSION_SCRIPTS, ...CONTEXT_SCRIPTS, ...REPLY_SCRIPTS];
const MINUTE = 60_000;
/**
 * TAKE and SETTLE as the stores below make them, their settings (the stores' timings) written into
 * the text: a store that wrote other values than it was given would run a script not named here.
 */
const STORE_SCRIPTS = [
  takeScript({ debounceMs: 0, maxWaitMs: 0, batchTtlMs: MINUTE, markerTtlMs: 5000 }),
  settleScript({
    recordTtlS: 60,
    deadTtlS: 86_400,
    contextCap: 10,
    contextTtlMs: MINUTE,
    debounceMs: 0,
    maxWaitMs: 0,
    batchTtlMs: 0,
    markerTtlMs: 5000,
  }),
];
const BY_SHA = new Map([...ALL_SCRIPTS, ...STORE_SCRIPTS].map((script) => [script.sha, script]));

interface Execution {
  script: string;
  keys: string[];
}

/** The connection as the stores see it, recording each script that ran (by its SHA) with the keys it was given. */
function recording(redis: Redis, executions: Execution[]): Redis {
  const record = (sha: string, numKeys: unknown, rest: unknown[]): void => {
    executions.push({ script: BY_SHA.get(sha)?.name ?? `unknown script ${sha}`, keys: rest.slice(0, Number(numKeys)).map(String) });
  };
  return new Proxy(redis, {
    get(target, property) {
      if (property === 'evalsha' || property === 'eval') {
        return async (first: string, numKeys: number, ...rest: (string | number)[]) => {
          const result: unknown =
            property === 'evalsha' ? await target.evalsha(first, numKeys, ...rest) : await target.eval(first, numKeys, ...rest);
          record(property === 'evalsha' ? first : createHash('sha1').update(first).digest('hex'), numKeys, rest);
          return result;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Every Lua script of the service (docs/design/lua-scripts.md). This file also runs in the cluster pass
 * (.mocharc.cluster.json), where each script is executed on a 3-master Redis Cluster: a script whose
 * keys did not share one slot would fail there with CROSSSLOT.
 */
describe('every Lua script of the service (admission, context, reply protocol)', () => {
  let redis: Redis;
  before(async () => {
    redis = createRedis(loadConfig(testRedisEnv()).redis, 'request', { name: 'lua-scripts-test' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.disconnect());

  it('every script opens with a header naming its KEYS, ARGV and Output, and builds no key inside', () => {
    expect(ALL_SCRIPTS.length).to.equal(19);
    expect(new Set(ALL_SCRIPTS.map((s) => s.name)).size).to.equal(ALL_SCRIPTS.length);
    expect(ALL_SCRIPTS.flatMap(scriptConventionProblems)).to.deep.equal([]);
  });

  it('every script runs once, through the stores that use it, with its declared keys, all in one slot', async () => {
    const executions: Execution[] = [];
    const through = recording(redis, executions);
    const keys = createRedisKeys(uniquePrefix('lua'));
    const conversationId = 'c_lua-every-script';
    const deliveryId = newDeliveryId(keys.shardOf(conversationId));
    const minute = MINUTE;

    const admission = createAdmission({ redis: through, keys, replayTtlMs: minute, idempotencyTtlMs: minute, pendingTtlMs: minute });
    const idem = { client: 'shop', eventType: 'auto_dialog', msgId: 'm-1' };
    expect(
      await admission.admit({ client: 'shop', ratePerS: 100, nowMs: Date.now(), replayDigest: 'd-1', idempotency: idem }),
    ).to.deep.equal({ kind: 'admitted' });
    await admission.complete(idem, { status: 202, request_id: 'r-1', data: {} });
    expect(
      await admission.admit({ client: 'shop', ratePerS: 100, nowMs: Date.now(), replayDigest: 'd-2', idempotency: undefined }),
    ).to.deep.equal({ kind: 'admitted' });
    await admission.release({ ...idem, msgId: 'm-2' });

    const contexts = createContextStore({ redis: through, keys, maxMessages: 10, ttlSeconds: 60 });
    await contexts.record(conversationId, [
      { msg_id: 'm-1', role: 'customer', from_user_id: 'u', content: [], event_type: 'auto_dialog', create_timestamp: 1 },
    ]);
    expect((await contexts.read(conversationId)).map((m) => m.msg_id)).to.deep.equal(['m-1']);

    const turns = createTurnStore({
      redis: through,
      keys,
      timings: { debounceMs: 0, maxWaitMs: 0, pendingTtlMs: minute, attemptMarkerTtlMs: 5000 },
    });
    const due: DueMessage = {
      message: { msg_id: 'm-1', role: 'customer', from_user_id: 'u', content: [], event_type: 'auto_dialog', create_timestamp: 1 },
      client: 'shop',
      conversationId,
      sendUrl: 'https://hooks.example/shop',
      groupId: undefined,
      groupName: undefined,
      boundAccountId: 'b',
      receivedAtMs: Date.now(),
    };
    expect(await turns.schedule(due)).to.deep.equal({ kind: 'queued', generation: 0, opensTurn: true });
    expect(await turns.claimOverdue(keys.shardOf(conversationId), 0, 10)).to.deep.equal([conversationId]);
    expect(await turns.waitingTurn(conversationId)).to.equal(0);
    expect((await turns.take(conversationId, 0, deliveryId)).kind).to.equal('batch');
    expect(await turns.beginAttempt(conversationId, 0, deliveryId)).to.equal(true);
    expect(await turns.finish(conversationId, 0)).to.deep.equal({ next: false, generation: 1 });
    expect((await turns.cancel(conversationId, { setStop: true, pauseMs: 0 })).generation).to.equal(1);
    const attemptStore = createAttemptStore({
      redis: through,
      keys,
      attemptMarkerTtlMs: 5000,
      recordTtlS: 60,
      deadLetterTtlS: 86_400,
      context: { maxMessages: 10, ttlMs: minute },
    });
    expect((await attemptStore.open(conversationId, null, deliveryId)).go).to.equal(false);
    expect(await attemptStore.settle({ conversationId, generation: null, deliveryId, endTurn: false })).to.deep.equal({
      moved: '',
      turn: 'open',
      generation: 0,
    });

    const deliveries = createDeliveryStore({ redis: through, keys, ttlS: 60, deadLetterTtlS: 86_400 });
    const record: DeliveryRecord = {
      delivery_id: deliveryId,
      conversation_id: conversationId,
      client: 'shop',
      send_url: due.sendUrl,
      in_reply_to: ['m-1'],
      state: 'pending',
      payload: '{}',
      reply_content: '[]',
      generation: 0,
      created_at_ms: Date.now(),
      deadline_ms: Date.now() + minute,
      dead_reason: '',
      dead_detail: '',
      attempt_base: 0,
    };
    await deliveries.create(record);
    await deliveries.appendAttempt(deliveryId, {
      attempt: 1,
      at: new Date().toISOString(),
      status: 410,
      latency_ms: 5,
      error: null,
      response_body: 'gone',
    });
    expect(await deliveries.deadLetter(deliveryId, 'permanent_status', 'HTTP 410', Date.now())).to.equal(true);
    expect(await deliveries.revive(deliveryId, Date.now() + minute)).to.equal(true);
    await deliveries.bury(deliveryId, 'permanent_status', 'HTTP 410', Date.now());
    expect((await deliveries.get(deliveryId))?.state).to.equal('dead');

    expect([...new Set(executions.map((e) => e.script))].sort()).to.deep.equal(ALL_SCRIPTS.map((s) => s.name).sort());
    for (const { script, keys: given } of executions) {
      const declared = ALL_SCRIPTS.find((s) => s.name === script)!.keys;
      expect(given, script).to.have.length(declared.length);
      expect(new Set(given.map(slotOf)).size, `${script}: keys ${given.join(' ')}`).to.equal(1);
    }
  });

  it('the convention check catches a key built inside a script, inline or into a local, a key taken from ARGV, and a header that skips a key', () => {
    const script = (source: string) => ({
      name: 'bad',
      keys: ['pending', 'stop'],
      args: ['g'],
      sha: '',
      source: `--[[ x\n KEYS[1] pending\n ARGV[1] g\n Output: 1 ]]\n${source}`,
    });
    expect(scriptConventionProblems(script("return redis.call('GET', KEYS[1] .. ':x')\n"))).to.deep.equal([
      'bad: header does not name KEYS[2] stop',
      'bad: a key is built inside the script',
    ]);
    expect(scriptConventionProblems(script("local k = KEYS[1] .. ':x'\nreturn redis.call('GET', k)\n"))).to.deep.equal([
      'bad: header does not name KEYS[2] stop',
      'bad: a key is built inside the script',
      "bad: redis.call('GET', k) takes a key not passed in KEYS",
    ]);
    expect(scriptConventionProblems(script("local k = KEYS[1]\nreturn redis.call('GET', k)\n"))).to.include(
      "bad: redis.call('GET', k) takes a key not passed in KEYS",
    );
    expect(scriptConventionProblems(script("redis.call('DEL', KEYS[1], ARGV[1])\nreturn redis.call('TIME')\n"))).to.include(
      "bad: redis.call('DEL', ARGV[1]) takes a key not passed in KEYS",
    );
    expect(scriptConventionProblems(script("return redis.call('ZADD', KEYS[1], 1, redis.call('HGET', ARGV[1], 'f'))\n"))).to.include(
      "bad: redis.call('HGET', ARGV[1]) takes a key not passed in KEYS",
    );
  });

  it('the convention check catches a number passed to a command: a literal, arithmetic, a length or a tonumber (each formatted with %.17g by Redis 7.0)', () => {
    const script = (source: string) => ({
      name: 'bad',
      keys: ['order'],
      args: ['keep', 'ttl'],
      sha: '',
      source: `--[[ x\n KEYS[1] order\n ARGV[1] keep  ARGV[2] ttl\n Output: 1 ]]\n${source}`,
    });
    expect(scriptConventionProblems(script("return redis.call('LRANGE', KEYS[1], 0, -1)\n"))).to.deep.equal([
      "bad: redis.call('LRANGE', …, 0) passes a number: pass text",
      "bad: redis.call('LRANGE', …, -1) passes a number: pass text",
    ]);
    expect(
      scriptConventionProblems(
        script("redis.call('LTRIM', KEYS[1], '0', ARGV[1] - 1)\nreturn redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))\n"),
      ),
    ).to.deep.equal([
      "bad: redis.call('LTRIM', …, ARGV[1] - 1) passes a number: pass text",
      "bad: redis.call('PEXPIRE', …, tonumber(ARGV[2])) passes a number: pass text",
    ]);
    expect(scriptConventionProblems(script("local t = {}\nreturn redis.call('RPUSH', KEYS[1], #t)\n"))).to.deep.equal([
      "bad: redis.call('RPUSH', …, #t) passes a number: pass text",
    ]);
    // text made once from a number, and numbers that are arguments of another function, pass
    expect(
      scriptConventionProblems(
        script(
          "local ids = {}\nredis.call('LTRIM', KEYS[1], '0', string.format('%d', ARGV[1] - 1))\nreturn redis.call('HMGET', KEYS[1], unpack(ids, 1, math.min(1 + 499, #ids)))\n",
        ),
      ),
    ).to.deep.equal([]);
  });
});
