import { expect } from 'chai';
import { ConfigError, loadConfig } from '../src/index.js';

/** TRUST_PROXY (docs/operating.md, Configuration): `true`, a hop count, or addresses / subnets, as Express's `trust proxy` takes them. */
describe('TRUST_PROXY', () => {
  it('reads true and false (any case), a hop count, and a list of addresses, subnets and named ranges', () => {
    const trust = (value: string): unknown => loadConfig({ TRUST_PROXY: value }).ingress.trustProxy;
    expect(trust('true')).to.equal(true);
    expect(trust('TRUE')).to.equal(true);
    expect(trust('false')).to.equal(undefined);
    expect(trust('False')).to.equal(undefined);
    expect(trust('2')).to.equal(2);
    expect(trust('loopback, 10.0.0.0/8, 192.168.1.7, fc00::/7, 172.16.0.0/255.240.0.0')).to.equal(
      'loopback, 10.0.0.0/8, 192.168.1.7, fc00::/7, 172.16.0.0/255.240.0.0',
    );
  });

  for (const value of ['garbage', '10.0.0.0/33', '::1/129', '-1', 'loopback,,10.0.0.1', '10.0.0.0/255.0.255.0', '10.0.0.1/8/8']) {
    it(`refuses TRUST_PROXY="${value}", naming it`, () => {
      expect(() => loadConfig({ TRUST_PROXY: value })).to.throw(ConfigError, /^TRUST_PROXY: /);
    });
  }
});
