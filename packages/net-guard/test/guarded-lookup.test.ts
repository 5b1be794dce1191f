import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { checkSendUrl, createGuardedLookup } from '../src/index.js';
import { fakeResolver, sequenceResolver } from './fake-resolver.js';

type GetResult = { status: number } | { code: string | undefined; message: string };

/** One http.get through the given lookup; resolves with the status or the error code. */
function get(url: string, lookup: LookupFunction): Promise<GetResult> {
  return new Promise((done) => {
    const request = http.get(url, { lookup, agent: false }, (response) => {
      response.resume();
      response.on('end', () => done({ status: response.statusCode ?? 0 }));
    });
    request.on('error', (err: NodeJS.ErrnoException) => done({ code: err.code, message: err.message }));
  });
}

function lookupOnce(
  lookup: LookupFunction,
  host: string,
  options: object,
): Promise<{ err: NodeJS.ErrnoException | null; args: unknown[] }> {
  return new Promise((done) => lookup(host, options, (err, ...args) => done({ err, args })));
}

describe('createGuardedLookup', () => {
  let server: http.Server;
  let port: number;
  let hits: number;

  before(async () => {
    hits = 0;
    server = http.createServer((_req, res) => {
      hits += 1;
      res.end('ok');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  const receiver = fakeResolver({ 'receiver.test': ['127.0.0.1'] });

  it('lets a real request reach a loopback receiver when private targets are allowed', async () => {
    const lookup = createGuardedLookup({ allowPrivate: true }, { resolve: receiver });
    expect(await get(`http://receiver.test:${port}/hook`, lookup)).to.deep.equal({ status: 200 });
  });

  it('works with the real resolver for localhost when private targets are allowed', async () => {
    const lookup = createGuardedLookup({ allowPrivate: true });
    expect(await get(`http://localhost:${port}/hook`, lookup)).to.deep.equal({ status: 200 });
  });

  it('fails a real request to a loopback receiver with ESENDURLFORBIDDEN', async () => {
    const before = hits;
    const result = await get(`http://receiver.test:${port}/hook`, createGuardedLookup({ allowPrivate: false }, { resolve: receiver }));
    expect(result).to.include({ code: 'ESENDURLFORBIDDEN' });
    expect(hits).to.equal(before);
  });

  it('refuses localhost via the real resolver when private targets are not allowed', async () => {
    const result = await get(`http://localhost:${port}/hook`, createGuardedLookup({ allowPrivate: false }));
    expect(result).to.include({ code: 'ESENDURLFORBIDDEN' });
  });

  it('stops DNS rebinding: accepted at check time, refused at connect time', async () => {
    const rebinding = sequenceResolver(['93.184.216.34'], ['127.0.0.1']);
    const verdict = await checkSendUrl(`http://rebind.test:${port}/hook`, { allowPrivate: false }, { resolve: rebinding });
    expect(verdict.ok).to.equal(true);
    const before = hits;
    const result = await get(`http://rebind.test:${port}/hook`, createGuardedLookup({ allowPrivate: false }, { resolve: rebinding }));
    expect(result).to.include({ code: 'ESENDURLFORBIDDEN' });
    expect(rebinding.calls).to.equal(2);
    expect(hits).to.equal(before);
  });

  describe('as a dns.lookup drop-in', () => {
    const lookup = createGuardedLookup(
      { allowPrivate: false },
      {
        resolve: fakeResolver({
          'public.test': ['2606:2800:220:1:248:1893:25c8:1946', '93.184.216.34'],
          'mixed.test': ['93.184.216.34', '169.254.169.254'],
        }),
      },
    );

    it('answers every checked address when options.all is set', async () => {
      const { err, args } = await lookupOnce(lookup, 'public.test', { all: true });
      expect(err).to.equal(null);
      expect(args[0]).to.deep.equal([
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ]);
    });

    it('answers the first address and its family otherwise, honouring options.family', async () => {
      expect((await lookupOnce(lookup, 'public.test', {})).args).to.deep.equal(['2606:2800:220:1:248:1893:25c8:1946', 6]);
      expect((await lookupOnce(lookup, 'public.test', { family: 4 })).args).to.deep.equal(['93.184.216.34', 4]);
    });

    it('refuses the whole host when any answer is forbidden, naming the reason', async () => {
      const { err } = await lookupOnce(lookup, 'mixed.test', { all: true });
      expect(err?.code).to.equal('ESENDURLFORBIDDEN');
      expect(err?.message).to.contain('link-local address (169.254.169.254)');
    });

    it('passes resolver failures through as errors', async () => {
      const { err } = await lookupOnce(lookup, 'nowhere.test', {});
      expect(err?.code).to.equal('ENOTFOUND');
    });

    it('checks IP literals without asking the resolver', async () => {
      expect((await lookupOnce(lookup, '10.0.0.1', {})).err?.code).to.equal('ESENDURLFORBIDDEN');
      expect((await lookupOnce(lookup, '93.184.216.34', {})).args).to.deep.equal(['93.184.216.34', 4]);
    });
  });
});
