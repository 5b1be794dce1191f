import { expect } from 'chai';
import { luaText } from '../src/index.js';

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
