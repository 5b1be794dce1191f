import { expect } from 'chai';
import { forbiddenAddressReason } from '../src/index.js';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

describe('forbiddenAddressReason', () => {
  const forbidden: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::7f00:1', 'ipv4Compatible'],
    ['2002:7f00:1::', '6to4'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ];
  for (const [address, reason] of forbidden) {
    it(`names ${address} as ${reason}`, () => {
      expect(forbiddenAddressReason(address, strict)).to.equal(reason);
    });
  }

  it('allows public unicast IPv4, IPv6 and IPv4-mapped public addresses', () => {
    expect(forbiddenAddressReason('93.184.216.34', strict)).to.equal(null);
    expect(forbiddenAddressReason('2606:2800:220:1:248:1893:25c8:1946', strict)).to.equal(null);
    expect(forbiddenAddressReason('::ffff:93.184.216.34', strict)).to.equal(null);
  });

  it('opens loopback and private ranges when private targets are allowed', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', 'fd12::1']) {
      expect(forbiddenAddressReason(address, lenient), address).to.equal(null);
    }
  });

  it('keeps link-local, metadata, multicast, broadcast and unspecified addresses closed when private targets are allowed', () => {
    const closed: [string, string][] = [
      ['169.254.169.254', 'linkLocal'],
      ['169.254.1.1', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['100.100.100.200', 'carrierGradeNat'],
      ['fd00:ec2::254', 'uniqueLocal'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['::ffff:169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
    ];
    for (const [address, reason] of closed) expect(forbiddenAddressReason(address, lenient), address).to.equal(reason);
  });

  it('calls anything that is not a strict IP address invalid, whatever the policy', () => {
    for (const value of ['localhost', '127.1', '0x7f.0.0.1', '', '1.2.3.4.5']) {
      expect(forbiddenAddressReason(value, strict)).to.equal('invalid');
      expect(forbiddenAddressReason(value, lenient)).to.equal('invalid');
    }
  });
});
