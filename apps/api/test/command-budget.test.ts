import { composedScripts, createRedis, scriptConventionProblems, type Redis } from '@dialog-relay/redis';
import { conversationIdOf } from '@dialog-relay/conversations';
import { monitorRedis } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { bodyFor, msgId, post, sign, startTestApi, type Body, type TestApi } from './support/test-api.js';

/**
 * docs/design/performance.md "Command budgets": the Redis commands each synchronous path sends, counted
 * from outside with MONITOR on the test's private Redis (top-level commands only; what a script runs
 * inside Redis is not counted, but for the commands on a msg_id's idempotency key, which show whether
 * the accept claims it before answering). A change that adds a command to a path fails here. Single Redis only:
 * on a cluster a request whose client's and conversation's keys meet costs one more (docs/design/scaling.md).
 */
describe('Redis command budget of each synchronous path', () => {
  let t: TestApi;
  let marker: Redis;
  const seen: string[][] = [];
  /** Commands scripts ran on an idempotency key (`:idem:`), while `commandsOf` counts. */
  const idempotencyWrites: string[][] = [];
  const waiters: { token: string; resolve: () => void }[] = [];

  before(async () => {
    t = await startTestApi({ CLIENT_CACHE_MS: '3600000' });
    marker = createRedis(t.config.redis, 'request', { name: 'budget-marker' });
    const target = t.config.redis.target;
    if (target.mode !== 'single') throw new Error('the command budget is counted on one Redis');
    const monitor = await monitorRedis(target.url, ({ args, source }) => {
      const token = waiters.find((w) => args.includes(w.token));
      if (token) {
        token.resolve();
        return;
      }
      // Commands a script runs inside Redis are shown with the source "lua": not top-level.
      if (source === 'lua' && args[1]?.startsWith(t.config.redisPrefix) && args[1].includes(':idem:')) idempotencyWrites.push([...args]);
      if (source === 'lua' || !args.some((a) => a.includes(t.config.redisPrefix))) return;
      seen.push([...args]);
    });
    after(() => monitor.close());
  });
  after(async () => {
    marker.disconnect();
    await t.close();
  });

  /** Sends a marker and waits until MONITOR shows it: everything Redis ran before it has been shown. */
  const flushMonitor = async (): Promise<void> => {
    const token = `budget-marker-${randomUUID()}`;
    const shown = new Promise<void>((resolve) => waiters.push({ token, resolve }));
    await marker.echo(token);
    await shown;
  };
  /**
   * The API's commands while `send` runs, between two markers: the first, so that what an earlier
   * request ran but MONITOR had not shown yet is not counted here (CI once counted the previous
   * accept's BullMQ job add in a stop's window); the second, so that everything `send` ran is shown.
   */
  const commandsOf = async (send: () => Promise<unknown>): Promise<string[]> => {
    await flushMonitor();
    seen.length = 0;
    idempotencyWrites.length = 0;
    await send();
    await flushMonitor();
    last = seen
      .map((args) =>
        args
          .slice(0, 8)
          .map((a) => a.slice(0, 60))
          .join(' '),
      )
      .join(' | ');
    return seen.map((args) => (args[0] ?? '').toUpperCase());
  };
  /** What the scripts did to a msg_id's answer key while `commandsOf` counted: `GET`, `SET pending` (a claim), `SET answer`. */
  const idempotencyOps = (): string[] =>
    idempotencyWrites.map(
      ([command, , value]) => `${command!.toUpperCase()}${value === undefined ? '' : ` ${value === 'pending' ? 'pending' : 'answer'}`}`,
    );
  /** The commands counted last, with their first arguments (keys, the SHA): what a failure message shows. */
  let last = '';
  const expectOk = async (body: Body, status: number): Promise<void> => {
    const answer = await post(t.url, sign(body));
    expect(answer.status, JSON.stringify(answer.json)).to.equal(status);
  };
  const people = (): Record<string, string> => ({ from_user_id: `cust-${randomUUID().slice(0, 8)}`, to_user_id: 'bound-budget' });

  before(async () => {
    // Warm-up: the client settings are cached and the scripts known to the server.
    for (const kind of ['assist_dialog', 'website_dialog', 'auto_dialog'] as const) {
      await expectOk(
        bodyFor(kind, { msg_id: msgId('warm'), ...people() }, kind === 'auto_dialog' ? { send_url: 'http://127.0.0.1:9/hook' } : {}),
        kind === 'auto_dialog' ? 202 : 200,
      );
    }
    // website_dialog answered from the message alone, without a msg_id; and a follow-up, whose context is read first
    await expectOk(bodyFor('website_dialog', people()), 200);
    const asking = people();
    await expectOk(bodyFor('website_dialog', { ...asking, msg_id: msgId('warm') }), 200);
    await expectOk(bodyFor('website_dialog', { ...asking, msg_id: msgId('warm'), content: 'and at Christmas?' }), 200);
    for (const content of ['stop_auto_reply', 'resume_auto_reply', 'auto_reply_status']) {
      await expectOk(bodyFor('cmd_dialog', { content, ...people() }), 200);
      await expectOk(bodyFor('cmd_dialog', { content, ...people(), msg_id: msgId('warm') }), 200);
    }
    // A stop that cancels a waiting reply also removes its turn job: BullMQ's script is known too.
    const waiting = people();
    await expectOk(bodyFor('auto_dialog', { msg_id: msgId('warm-waiting'), ...waiting }, { send_url: 'http://127.0.0.1:9/hook' }), 202);
    await expectOk(bodyFor('cmd_dialog', { content: 'stop_auto_reply', ...waiting }), 200);
  });

  it('assist_dialog sends at most 2 commands', async () => {
    const commands = await commandsOf(() => expectOk(bodyFor('assist_dialog', { msg_id: msgId('assist'), ...people() }), 200));
    expect(commands.length, last).to.be.within(1, 2);
  });

  it('website_dialog sends at most 2 commands', async () => {
    const commands = await commandsOf(() => expectOk(bodyFor('website_dialog', { msg_id: msgId('web'), ...people() }), 200));
    expect(commands.length, last).to.be.within(1, 2);
  });

  // docs/design/performance.md "A reply from the message alone": a question the engine answers
  // confidently alone cannot be changed by the context, so the context is not read.
  for (const withMsgId of [true, false]) {
    it(`website_dialog answered from the message alone sends 1 command, ${withMsgId ? 'with' : 'without'} a msg_id`, async () => {
      const info = { ...people(), content: 'What are your opening hours?', ...(withMsgId ? { msg_id: msgId('web-alone') } : {}) };
      const commands = await commandsOf(() => expectOk(bodyFor('website_dialog', info), 200));
      expect(commands, last).to.deep.equal(['EVALSHA']);
    });
  }

  it('website_dialog whose answer may rest on the earlier messages reads them first: 2 commands, and the follow-up is answered', async () => {
    const parties = people();
    await expectOk(bodyFor('website_dialog', { ...parties, msg_id: msgId('web-first'), content: 'What are your opening hours?' }), 200);
    let answer: Awaited<ReturnType<typeof post>> | undefined;
    const commands = await commandsOf(async () => {
      answer = await post(
        t.url,
        sign(bodyFor('website_dialog', { ...parties, msg_id: msgId('web-follow'), content: 'and at Christmas?' })),
      );
    });
    expect(commands, last).to.deep.equal(['EVALSHA', 'EVALSHA']);
    expect(answer?.status).to.equal(200);
    expect(answer?.json.data?.['sources']).to.deep.equal(['opening-hours']);
  });

  for (const content of ['stop_auto_reply', 'resume_auto_reply', 'auto_reply_status']) {
    // a stop's and a resume's writes need no reads (they run in the script that admits them); a status writes nothing
    it(`cmd_dialog ${content} sends 1 command, with or without a msg_id`, async () => {
      const parties = people();
      // The conversation has a message in its context (the bot's own: no reply waits).
      await expectOk(
        bodyFor('auto_dialog', { msg_id: msgId('before-cmd'), ...parties, from_user_type: 4 }, { send_url: 'http://127.0.0.1:9/hook' }),
        202,
      );
      for (const info of [
        { content, ...parties },
        { content, ...parties, msg_id: msgId('cmd') },
      ]) {
        const commands = await commandsOf(() => expectOk(bodyFor('cmd_dialog', info), 200));
        expect(commands, last).to.deep.equal(['EVALSHA']);
      }
    });
  }

  it('cmd_dialog auto_reply_status with a msg_id sends 1 command: its reads are its stored answer, kept in the script that admits it', async () => {
    // docs/design/performance.md "Command budgets": a path that writes nothing but its answer, and
    // whose answer is made from its reads alone, has no second script.
    const parties = people();
    await expectOk(bodyFor('auto_dialog', { msg_id: msgId('before-status'), ...parties }, { send_url: 'http://127.0.0.1:9/hook' }), 202);
    const commands = await commandsOf(() =>
      expectOk(bodyFor('cmd_dialog', { content: 'auto_reply_status', ...parties, msg_id: msgId('status') }), 200),
    );
    expect(commands, last).to.deep.equal(['EVALSHA']);
    // no 'pending' claim: the answer is stored by the same script, which nothing can interrupt
    expect(idempotencyOps()).to.deep.equal(['GET', 'SET answer']);
  });

  it('cmd_dialog stop_auto_reply cancelling a waiting reply sends one more: the removal of its turn job (BullMQ), 2 in all', async () => {
    const parties = people();
    await expectOk(bodyFor('auto_dialog', { msg_id: msgId('waiting'), ...parties }, { send_url: 'http://127.0.0.1:9/hook' }), 202);
    const commands = await commandsOf(() =>
      expectOk(bodyFor('cmd_dialog', { content: 'stop_auto_reply', ...parties, msg_id: msgId('stop') }), 200),
    );
    expect(commands.length, last).to.be.within(1, 2);
  });

  it('auto_dialog accepting a customer message sends at most 2 commands: admission and the writes are one script, then the turn job', async () => {
    const commands = await commandsOf(() =>
      expectOk(bodyFor('auto_dialog', { msg_id: msgId('auto'), ...people() }, { send_url: 'http://127.0.0.1:9/hook' }), 202),
    );
    expect(commands.length, last).to.be.within(1, 2);
  });

  it("each path's scripts take only what changes per request: the stores' settings are in the scripts' text", async () => {
    // Each key or argument costs Redis about 1,500 instructions, its conversion to a Lua string
    // (docs/design/performance-log.md, twenty-second session); expiries, caps, the engine's reach and
    // admission's mode are the same on every call of a store, so they are written into its parts.
    /** Keys and arguments of the path's own scripts (those naming the client's rate window or a msg_id's answer; not BullMQ's add). */
    const passed = (): number =>
      seen
        .filter(
          ([command, , , ...rest]) =>
            command?.toUpperCase() === 'EVALSHA' && rest.some((a) => a.includes(':rate:') || a.includes(':idem:')),
        )
        .reduce((sum, args) => sum + args.length - 3, 0);
    const paths: [string, () => Promise<void>, number][] = [
      // (assist_dialog: one key more, the msg_id index's entry its first script reads)
      ['assist_dialog', () => expectOk(bodyFor('assist_dialog', { msg_id: msgId('args'), ...people() }), 200), 15],
      ['website_dialog', () => expectOk(bodyFor('website_dialog', { msg_id: msgId('args'), ...people() }), 200), 14],
      [
        'cmd_dialog auto_reply_status',
        () => expectOk(bodyFor('cmd_dialog', { content: 'auto_reply_status', ...people(), msg_id: msgId('args') }), 200),
        13,
      ],
      [
        'auto_dialog',
        () => expectOk(bodyFor('auto_dialog', { msg_id: msgId('args'), ...people() }, { send_url: 'http://127.0.0.1:9/hook' }), 202),
        25,
      ],
    ];
    const counted: Record<string, number> = {};
    for (const [name, send] of paths) {
      await commandsOf(send);
      counted[name] = passed();
    }
    expect(counted).to.deep.equal(Object.fromEntries(paths.map(([name, , most]) => [name, Math.min(most, counted[name] ?? 0)])));
  });

  it("auto_dialog's accept answers its msg_id in the script that admits it: no 'pending' claim first (assist_dialog, answered in a second script, claims it with one SET)", async () => {
    await commandsOf(() =>
      expectOk(bodyFor('auto_dialog', { msg_id: msgId('claim'), ...people() }, { send_url: 'http://127.0.0.1:9/hook' }), 202),
    );
    expect(idempotencyOps()).to.deep.equal(['GET', 'SET answer']);
    await commandsOf(() => expectOk(bodyFor('assist_dialog', { msg_id: msgId('claim'), ...people() }), 200));
    // the claim's SET NX reads nothing before it: a taken msg_id is read only when the SET finds it
    expect(idempotencyOps()).to.deep.equal(['SET pending', 'GET', 'SET answer']);
  });

  it("auto_dialog accepting a message while the conversation's turn waits sends 1: its turn job exists, so none is added", async () => {
    const parties = people();
    const hook = { send_url: 'http://127.0.0.1:9/hook' };
    const first = await commandsOf(() => expectOk(bodyFor('auto_dialog', { msg_id: msgId('opens'), ...parties }, hook), 202));
    expect(first.length, last).to.equal(2);
    for (const n of [1, 2]) {
      const commands = await commandsOf(() => expectOk(bodyFor('auto_dialog', { msg_id: msgId(`joins-${n}`), ...parties }, hook), 202));
      expect(commands.length, last).to.equal(1);
    }
    // The one job still serves every waiting message: the conversation's turn job is there.
    const job = `${conversationIdOf('shop', parties)}-0`;
    const jobKeys = await marker.keys(`${t.config.redisPrefix}*:${job}`);
    expect(jobKeys, `the turn job ${job}`).to.have.length(1);
  });

  it('a failed authentication sends no command: its throttle counts in the process, and Redis is touched only by an admitted request', async () => {
    const failed = await commandsOf(async () => {
      const answer = await post(t.url, sign(bodyFor('website_dialog', { msg_id: msgId('bad') }), 'not-the-secret-0001'));
      expect(answer.status).to.equal(401);
    });
    expect(failed).to.deep.equal([]);
  });

  it('every composed script the paths ran follows the script conventions (docs/design/lua-scripts.md), on one Redis and per cluster slot', () => {
    const scripts = composedScripts();
    expect(scripts.length).to.be.above(5);
    expect(scripts.flatMap(scriptConventionProblems)).to.deep.equal([]);
  });
});
