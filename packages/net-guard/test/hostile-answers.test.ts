import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { checkSendUrl, createGuardedLookup, type Resolver } from '../src/index.js';
import { fakeResolver, sequenceResolver } from './fake-resolver.js';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };
const noDns: Resolver = (hostname) => Promise.reject(new Error(`DNS must not be asked for ${hostname}`));

function lookupOnce(lookup: LookupFunction, host: string, options: object): Promise<NodeJS.ErrnoException | null> {
  return new Promise((done) => lookup(host, options, (err) => done(err)));
}

/**
 * Spellings and resolver answers meant to slip a forbidden address past the send_url policy
 * (docs/service-rules.md §7, §16). Only the guard's verdicts are exercised: nothing here connects
 * anywhere but to a loopback server, and only through an address the guard allowed.
 */
describe('send_url guard against hostile spellings and answers', () => {
  it('refuses octal, hex, dotted-decimal shorthand and trailing-dot spellings of a forbidden IPv4 address without asking DNS', async () => {
    // [spelling, opened by allowPrivate]: loopback is, metadata and unspecified never are.
    const spellings: [string, boolean][] = [
      ['http://0177.0.0.1/', true],
      ['http://0x7f000001/', true],
      ['http://127.1/', true],
      ['http://127.0.0.1./', true],
      ['http://0.0.0.0./', false],
      ['http://0251.0376.0251.0376/', false],
      ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', false],
    ];
    for (const [raw, opened] of spellings) {
      expect((await checkSendUrl(raw, strict, { resolve: noDns })).ok, raw).to.equal(false);
      expect((await checkSendUrl(raw, lenient, { resolve: noDns })).ok, raw).to.equal(opened);
    }
  });

  it('asks the resolver about a name with a trailing dot, and refuses what it answers', async () => {
    const resolve = fakeResolver({ 'localhost.': ['127.0.0.1'], 'hooks.test.': ['169.254.169.254'] });
    expect(await checkSendUrl('http://localhost./hook', strict, { resolve })).to.deep.include({
      ok: false,
      reason: 'send_url resolves to a loopback address (127.0.0.1)',
    });
    expect((await checkSendUrl('http://hooks.test./hook', lenient, { resolve })).ok).to.equal(false);
    expect((await lookupOnce(createGuardedLookup(strict, { resolve }), 'localhost.', { all: true }))?.code).to.equal('ESENDURLFORBIDDEN');
  });

  it('refuses a name whose answers mix an opened range with a closed one, whichever comes first', async () => {
    const resolve = fakeResolver({
      'loop-then-meta.test': ['127.0.0.1', '169.254.169.254'],
      'meta-then-loop.test': ['::ffff:169.254.169.254', '::1'],
      'loop-then-private.test': ['127.0.0.1', '10.0.0.7'],
    });
    const lookup = createGuardedLookup(lenient, { resolve });
    for (const host of ['loop-then-meta.test', 'meta-then-loop.test']) {
      expect((await lookupOnce(lookup, host, { all: true }))?.code, host).to.equal('ESENDURLFORBIDDEN');
      expect((await lookupOnce(lookup, host, { family: 6 }))?.code, host).to.equal('ESENDURLFORBIDDEN');
      expect((await checkSendUrl(`http://${host}/`, lenient, { resolve })).ok, host).to.equal(false);
    }
    expect((await lookupOnce(createGuardedLookup(strict, { resolve }), 'loop-then-private.test', { all: true }))?.code).to.equal(
      'ESENDURLFORBIDDEN',
    );
    expect(await lookupOnce(lookup, 'loop-then-private.test', { all: true })).to.equal(null);
  });

  it('connects to the very address it checked: a resolver that would answer otherwise later is asked once per connection', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    // The second answer would be refused; the connection must not ask again after the check.
    const changing = sequenceResolver(['127.0.0.1'], ['169.254.169.254']);
    try {
      const connectedTo = await new Promise<string | undefined>((done, fail) => {
        const request = http.get(
          `http://changing.test:${port}/`,
          { lookup: createGuardedLookup(lenient, { resolve: changing }), agent: false },
          (response) => {
            const remote = response.socket.remoteAddress;
            response.resume();
            response.on('end', () => done(remote));
          },
        );
        request.on('error', fail);
      });
      expect(connectedTo).to.equal('127.0.0.1');
      expect(changing.calls).to.equal(1);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});
