import { expect } from 'chai';
import { cutDictionary } from '../src/text/chinese-dictionary.js';

describe('the Chinese dictionary cut', () => {
  const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

  it('keeps the lines of words at least as frequent as asked, tags and all, and drops the others', () => {
    const dict = Buffer.from('退货 2310 v\n罕见词 3 n\n包邮 5\n坏行\n\n运费 120 n');
    expect(text(cutDictionary(dict, 5))).to.equal('退货 2310 v\n包邮 5\n运费 120 n\n');
    expect(text(cutDictionary(dict, 1))).to.equal('退货 2310 v\n罕见词 3 n\n包邮 5\n运费 120 n\n');
    expect(text(cutDictionary(dict, 10_000))).to.equal('');
  });
});
