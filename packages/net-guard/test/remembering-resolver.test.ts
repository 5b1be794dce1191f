import { expect } from 'chai';
import { rememberingResolver, type LookupAddress, type Resolver } from '../src/index.js';

/** A resolver that counts its calls per host; `answers` may hold a host's failure (an Error) or addresses. */
function countingResolver(answers: Record<string, string[] | Error>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const answer = answers[hostname];
    if (answer === undefined || answer instanceof Error) return Promise.reject(answer ?? new Error(`getaddrinfo ENOTFOUND ${hostname}`));
    return Promise.resolve(answer.map((address) => ({ address, family: 4 as const })));
  };
  return Object.assign(resolve, { calls });
}

describe('rememberingResolver', () => {
  it('asks once per host within the memory window, and again after it', async () => {
    let now = 1_000;
    const inner = countingResolver({ 'a.test': ['93.184.216.34'], 'b.test': ['93.184.216.35'] });
    const resolve = rememberingResolver(inner, { memoryMs: 30_000, now: () => now });
    for (let i = 0; i < 3; i++) expect((await resolve('a.test')).map((a) => a.address)).to.deep.equal(['93.184.216.34']);
    await resolve('b.test');
    expect(inner.calls).to.deep.equal(['a.test', 'b.test']);
    now += 29_999;
    await resolve('a.test');
    expect(inner.calls).to.have.length(2);
    now += 1;
    await resolve('a.test');
    expect(inner.calls).to.deep.equal(['a.test', 'b.test', 'a.test']);
  });

  it('does not remember a failed lookup or an empty answer', async () => {
    const inner = countingResolver({ 'down.test': new Error('getaddrinfo EAI_AGAIN down.test'), 'empty.test': [] });
    const resolve = rememberingResolver(inner, { now: () => 0 });
    for (let i = 0; i < 2; i++) {
      await resolve('down.test').then(
        () => expect.fail('a failed lookup resolved'),
        (error: Error) => expect(error.message).to.contain('EAI_AGAIN'),
      );
      expect(await resolve('empty.test')).to.deep.equal([]);
    }
    expect(inner.calls).to.deep.equal(['down.test', 'empty.test', 'down.test', 'empty.test']);
  });

  it('shares one lookup among calls for the same host under way at once', async () => {
    const inner = countingResolver({ 'a.test': ['93.184.216.34'] });
    const resolve = rememberingResolver(inner, { now: () => 0 });
    const answers = await Promise.all([resolve('a.test'), resolve('a.test'), resolve('a.test')]);
    expect(inner.calls).to.deep.equal(['a.test']);
    expect(answers.map((list) => list[0]?.address)).to.deep.equal(['93.184.216.34', '93.184.216.34', '93.184.216.34']);
  });

  it('keeps at most maxHosts hosts: past it, every host is asked for again', async () => {
    const inner = countingResolver({ 'a.test': ['93.184.216.34'], 'b.test': ['93.184.216.35'], 'c.test': ['93.184.216.36'] });
    const resolve = rememberingResolver(inner, { maxHosts: 2, now: () => 0 });
    for (const host of ['a.test', 'b.test', 'c.test', 'a.test', 'c.test']) await resolve(host);
    // c.test made room by forgetting a.test and b.test; a.test is asked again, c.test is remembered
    expect(inner.calls).to.deep.equal(['a.test', 'b.test', 'c.test', 'a.test']);
  });

  it('hands each caller its own list: changing one answer does not change what the next caller gets', async () => {
    const resolve = rememberingResolver(countingResolver({ 'a.test': ['93.184.216.34'] }), { now: () => 0 });
    const first = await resolve('a.test');
    first.push({ address: '10.0.0.1', family: 4 });
    expect((await resolve('a.test')).map((a) => a.address)).to.deep.equal(['93.184.216.34']);
  });
});
