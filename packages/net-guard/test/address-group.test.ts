import { expect } from 'chai';
import { addressGroup } from '../src/index.js';

describe('addressGroup', () => {
  it('keeps an IPv4 address as it is, also when written IPv4-mapped', () => {
    expect(addressGroup('203.0.113.9')).to.equal('203.0.113.9');
    expect(addressGroup('::ffff:203.0.113.9')).to.equal('203.0.113.9');
  });

  it('groups an IPv6 address by its /64, however it is written', () => {
    expect(addressGroup('2001:db8:1:2::a')).to.equal('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002:ffff:1:2:3')).to.equal('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(addressGroup('::1')).to.equal('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
  });

  it('returns anything that is not an IP address unchanged', () => {
    expect(addressGroup('not-an-address')).to.equal('not-an-address');
    expect(addressGroup('')).to.equal('');
  });
});
