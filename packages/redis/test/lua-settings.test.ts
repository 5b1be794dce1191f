import { testRedisUrl, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import {
  composedScripts,
  createRequestRedis,
  defineLuaPart,
  keptPerKey,
  luaText,
  runSteps,
  scriptConventionProblems,
  stepCall,
  waitForRedis,
  withSettings,
  type Redis,
} from '../src/index.js';

describe('a setting written into a script (luaText)', () => {
  it('is a quoted Lua string of the whole number, as a command takes it', () => {
    expect(luaText(0)).to.equal("'0'");
    expect(luaText(86_400_000)).to.equal("'86400000'");
  });

  it('refuses what would not read back as the same whole number: a fraction, a negative, a huge or a missing value', () => {
    for (const bad of [1.5, -1, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => luaText(bad), String(bad)).to.throw(/whole number/);
  });
});

describe("a part's settings written into its text (withSettings)", () => {
  let redis: Redis;
  before(async () => {
    redis = createRequestRedis(testRedisUrl(), { name: 'part-settings' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.disconnect());

  const ECHO = defineLuaPart({
    name: 'echo-settings',
    does: 'set its key, answer its arguments as one line',
    keys: ['target'],
    args: ['ttlMs', 'mode', 'value'],
    output: "'<ttlMs> <mode> <value>'",
    slot: 'client',
    lua: (k, a) =>
      `redis.call('SET', ${k.target}, ${a.value}, 'PX', ${a.ttlMs})\nreturn ${a.ttlMs} .. ' ' .. ${a.mode} .. ' ' .. ${a.value}`,
  });
  const target = `${uniquePrefix('part-settings')}:k`;

  it('answers as the part given every argument, its call passing only what is not a setting, and names the settings in the header', async () => {
    const passed: number[] = [];
    const counting = new Proxy(redis, {
      get(object, property) {
        if (property === 'evalsha')
          return (sha: string, numKeys: number, ...rest: (string | number)[]) => {
            passed.push(rest.length);
            return object.evalsha(sha, numKeys, ...rest);
          };
        const value: unknown = Reflect.get(object, property, object);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
    const set = withSettings(ECHO, { ttlMs: 60_000, mode: 'idem-answered' });
    expect(set.args).to.deep.equal(['value']);
    const whole = await runSteps(counting, [stepCall(ECHO, { target }, { ttlMs: 60_000, mode: 'idem-answered', value: 'v1' })]);
    const settled = await runSteps(counting, [stepCall(set, { target }, { value: 'v1' })]);
    expect(settled).to.deep.equal(whole);
    expect(settled).to.deep.equal(['60000 idem-answered v1']);
    expect(passed).to.deep.equal([4, 2]);
    expect(await redis.pttl(target)).to.be.within(59_000, 60_000);
    const script = composedScripts().find((s) => s.name === 'echo-settings' && s.args.length === 1);
    expect(script?.source).to.contain(`Settings (echo-settings, in this text): ttlMs 60000, mode "idem-answered"`);
    expect(scriptConventionProblems(script!)).to.deep.equal([]);
  });

  it('refuses an argument the part does not have, a number that is not whole, and a setting that is not a word', () => {
    expect(() => withSettings(ECHO, { other: 1 } as never)).to.throw(/no argument other/);
    expect(() => withSettings(ECHO, { ttlMs: 1.5 })).to.throw(/whole number/);
    expect(() => withSettings(ECHO, { mode: "x' .. redis.call('FLUSHALL') .. '" })).to.throw(/must be a word/);
  });
});

describe('a part or script made once per value (keptPerKey)', () => {
  it('makes one for each key the first time it is asked for, and gives the same one after', () => {
    const made: string[] = [];
    const partFor = keptPerKey(
      (limit: number, customers: number | '') => `${limit}:${customers}`,
      (limit: number, customers: number | '') => {
        made.push(`${limit}:${customers}`);
        return { limit, customers };
      },
    );
    const first = partFor(10, 2);
    expect(partFor(10, 2)).to.equal(first);
    expect(partFor(10, '')).to.not.equal(first);
    expect(partFor(10, '')).to.equal(partFor(10, ''));
    expect(made).to.deep.equal(['10:2', '10:']);
  });
});
