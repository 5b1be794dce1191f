import { createRequestRedis, waitForRedis, type Redis } from '@dialog-relay/redis';
import { commandCalls, monitorRedis, startRedisServer, waitUntil, type MonitorLine, type RedisServerHandle } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { processTurn } from './internals.js';
import { contextMessageFrom } from '@dialog-relay/conversations';
import { BOUND, CONVERSATION, createHarness, CUSTOMER, dueOf } from './harness.js';

/**
 * What Redis runs inside the reply protocol's scripts for each reply (docs/design/performance-log.md,
 * fifth 2026-11-27 session): each command a script runs costs Redis a lookup and a conversion or
 * two, so a read made twice in one call costs as much as a command of its own. Counted on a private
 * server (INFO commandstats counts the commands scripts run), for a backlog: one TAKE, then each
 * SETTLE ends a turn and takes the next.
 */
/** An auto_dialog text of the harness's customer, as the API records it. */
const customerMessage = (msgId: string, content: string) =>
  contextMessageFrom(
    {
      msg_id: msgId,
      from_user_id: CUSTOMER,
      to_user_id: BOUND,
      content,
      message_type: 1,
      event_type: 'auto_dialog',
      from_user_type: 2,
      create_timestamp: 1_700_000_000,
    },
    msgId,
  );

describe('commands the reply protocol scripts run inside Redis', () => {
  let server: RedisServerHandle;
  let redis: Redis;
  before(async () => {
    server = await startRedisServer();
    redis = createRequestRedis(server.url, { name: 'script-command-budget' });
    await waitForRedis(redis, 5000);
  });
  after(async () => {
    redis.disconnect();
    await server.stop();
  });

  const NOT_SCRIPTED = ['info', 'config|resetstat', 'evalsha', 'eval', 'script|load', 'client|setname'];
  const scriptedCalls = async (): Promise<Map<string, number>> => {
    const calls = commandCalls(await redis.info('commandstats'));
    for (const name of NOT_SCRIPTED) calls.delete(name);
    return calls;
  };

  it('is at most 8 to queue a message that joins a waiting list (SCHEDULE: the push counts what waits), and at most 3 to answer a retried msg_id', async () => {
    const h = createHarness(redis);
    const conversationId = `${CONVERSATION}s`;
    await h.receive('first', { conversationId });
    const dues = Array.from({ length: 20 }, (_, i) => dueOf(customerMessage(`s-${i}`, `question ${i}`), { conversationId }));
    await redis.config('RESETSTAT');
    for (const due of dues) expect((await h.turns.schedule(due)).kind).to.equal('queued');
    const joined = await scriptedCalls();
    const queued = [...joined.values()].reduce((a, b) => a + b, 0);
    expect(queued / dues.length, JSON.stringify(Object.fromEntries(joined))).to.be.at.most(8);
    expect(joined.get('llen') ?? 0, 'llen').to.equal(0);
    // the debounce ceiling's start is set by the message that opens the list, not by those joining it
    expect(joined.get('set') ?? 0, 'set').to.equal(2 * dues.length);

    // a retried request: found by its marker, nothing queued twice
    await redis.config('RESETSTAT');
    for (const due of dues) expect(await h.turns.schedule(due)).to.deep.include({ kind: 'queued' });
    const retried = [...(await scriptedCalls()).values()].reduce((a, b) => a + b, 0);
    expect(retried / dues.length).to.be.at.most(3);
    expect((await h.turns.snapshot(conversationId)).pending).to.have.length(21);
  });

  it('is at most 24.5 for a backlog of ten messages, the generation, the stop and the pending count each read once per call', async () => {
    const harnesses = [];
    for (let c = 0; c < 5; c++) {
      const h = createHarness(redis);
      const conversationId = `${CONVERSATION}b${c}`;
      for (let m = 0; m < 10; m++) await h.receive(`m${c}-${m}`, { conversationId });
      harnesses.push({ h, conversationId });
    }
    await redis.config('RESETSTAT');

    for (const { h, conversationId } of harnesses) await processTurn(h.deps, { conversationId, generation: 0 });

    const replies = harnesses.reduce((n, { h }) => n + h.deliverer.requests.length, 0);
    expect(replies).to.equal(50);
    const calls = await scriptedCalls();
    const total = [...calls.values()].reduce((a, b) => a + b, 0);
    // (24 before the TAKE of a conversation's first turn looked at its shard queue's waiting and
    // prioritized jobs, to drop a marker BullMQ left with no job behind it: 3 commands a conversation)
    expect(total / replies, JSON.stringify(Object.fromEntries(calls))).to.be.at.most(24.5);
    // read once per script call: a SETTLE per reply, and the TAKE of each conversation's first turn
    // (which also reads the live batch: two GETs)
    expect(calls.get('get') ?? 0).to.be.at.most(replies + 2 * 5);
    expect(calls.get('exists') ?? 0).to.be.at.most(replies + 5);
    // the pending count once per call, and the shard queue's waiting jobs once per TAKE; the
    // context's length comes from the RPUSH that appends the reply
    expect(calls.get('llen') ?? 0).to.be.at.most(replies + 2 * 5);
    expect(calls.get('zcard') ?? 0, 'zcard').to.be.at.most(5);
    expect(calls.get('hget') ?? 0).to.equal(0);
    // writes a reply's SETTLE leaves out when they would change nothing: the trim of the
    // conversation's delivery list while it holds no more than it keeps, the TTL check of an attempt
    // log the attempt has just created, the DEL of a batch the next turn's SET replaces
    expect(calls.get('ltrim') ?? 0, 'ltrim').to.equal(0);
    expect(calls.get('ttl') ?? 0, 'ttl').to.equal(0);
    // per conversation: the batch and the oldest mark of its last turn
    expect(calls.get('del') ?? 0, 'del').to.be.at.most(2 * 5);
    // expired in-flight markers are swept when a job takes a turn (TAKE), not when SETTLE goes on
    expect(calls.get('hgetall') ?? 0, 'hgetall').to.equal(5);
  });
  it("reads a long context's order from its latest ids: a turn's TAKE at the cap of 50 lists the window and eleven more, not every id", async () => {
    // Every string a script reads costs Redis its hashing into Lua, about 8 instructions a byte
    // (docs/design/performance-log.md, twenty-second session): the 50 ids of a full context cost more
    // than the messages the turn goes on to read. The answered message is almost always among the latest.
    const h = createHarness(redis);
    const conversationId = `${CONVERSATION}long`;
    for (let i = 0; i < 60; i++) await h.contexts.record(conversationId, [customerMessage(`old-${i}`, `earlier ${i}`)]);
    await h.receive('latest', { conversationId });
    const ranges: MonitorLine[] = [];
    let seenAll = false;
    const monitor = await monitorRedis(server.url, (line) => {
      if (line.args[0]?.toUpperCase() === 'LRANGE' && line.args[1]?.endsWith(':order')) ranges.push(line);
      if (line.args[0]?.toUpperCase() === 'ECHO' && line.args[1] === 'long-context-taken') seenAll = true;
    });
    try {
      const taken = await h.turns.take(conversationId, 0, 'dlv-long', { window: 10, customerTexts: 2 });
      expect(taken.kind).to.equal('batch');
      // MONITOR shows commands in the order they ran: once it shows this one, it has shown the TAKE's
      await redis.echo('long-context-taken');
      await waitUntil(() => seenAll, 5000);
    } finally {
      monitor.close();
    }
    const listed = ranges.map(({ args }) => (args[2] === '0' && args[3] === '-1' ? 50 : -Number(args[2])));
    expect(listed, JSON.stringify(ranges.map((r) => r.args.slice(2)))).to.deep.equal([21]);
  });
  it("passes a reply's two scripts at most 57 keys and arguments: the settings and the engine's reach are in the scripts' text, not in each call", async () => {
    // Each argument costs Redis its conversion to a Lua string (about 1.4k instructions,
    // docs/design/performance-log.md, eighth 2026-11-27 session); TAKE's 4 settings and SETTLE's 9 are the
    // same for every call, so the stores write them into the scripts (76 per reply before); so is the
    // engine's reach (contextWindow, contextCustomers: 63 before), a script per reach asked for; a
    // produced record's delivery id and conversation id are SETTLE's own arguments (59 before).
    const passed: number[] = [];
    const counting = new Proxy(redis, {
      get(target, property) {
        if (property === 'evalsha' || property === 'eval')
          return (script: string, numKeys: number, ...rest: (string | number)[]) => {
            passed.push(rest.length);
            return property === 'evalsha' ? target.evalsha(script, numKeys, ...rest) : target.eval(script, numKeys, ...rest);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const h = createHarness(counting);
    const conversationId = `${CONVERSATION}a`;
    await h.receive('only', { conversationId });
    passed.length = 0;
    await processTurn(h.deps, { conversationId, generation: 0 });
    expect(h.deliverer.requests).to.have.length(1);
    expect(passed, 'keys and arguments of each script call').to.have.length(2);
    expect(passed.reduce((a, b) => a + b, 0)).to.be.at.most(57);
  });
});
