import { expect } from 'chai';
import canonicalize from 'canonicalize';
import { canonicalJson } from '../src/canonical-json.js';
import { seededRandom } from './seeded-random.js';

const PIECES = [
  'a',
  'Z',
  '1',
  ' ',
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  'é',
  '€',
  '你好',
  '\u2028',
  '😀',
  '\ud83c\udfff',
  'ｱ',
  '\ufeff',
  '\ufffd',
];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  1.5,
  0.1,
  1e21,
  1e-7,
  123456789012345680000,
  5e-324,
  1.7976931348623157e308,
  -(2 ** 53),
  2 ** 53 + 2,
  333333333.3333333,
];

function generator(seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const text = (): string => Array.from({ length: Math.floor(random() * 6) }, () => pick(PIECES)).join('');
  const value = (depth: number): unknown => {
    const kind = Math.floor(random() * (depth > 3 ? 5 : 7));
    switch (kind) {
      case 0:
        return text();
      case 1:
        return random() < 0.5 ? pick(NUMBERS) : (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
      case 2:
        return random() < 0.5;
      case 3:
        return null;
      case 4:
        return Math.floor(random() * 1e9);
      case 5:
        return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: Math.floor(random() * 6) }, () => [text(), value(depth + 1)]));
    }
  };
  return value;
}

const threw = (run: () => unknown): boolean => {
  try {
    run();
    return false;
  } catch {
    return true;
  }
};

describe('canonical JSON (RFC 8785) for request signatures', () => {
  it('writes what the canonicalize package writes for 3,000 generated JSON values', () => {
    const value = generator(8785);
    for (let i = 0; i < 3000; i++) {
      const generated = value(0);
      const parsed: unknown = JSON.parse(JSON.stringify(generated));
      expect(canonicalJson(parsed), JSON.stringify(parsed)).to.equal(canonicalize(parsed));
    }
  });

  it('orders objects of 0 to 40 members, in any order, as canonicalize does (short lists and long ones sort apart)', () => {
    const random = seededRandom(4096);
    const names = ['a', 'A', 'aa', 'a ', 'é', 'e\u0301', '\u{1F600}', '\uFF21', 'Z', '_', 'msg_id', 'msg', 'from_user_id', '~'];
    for (let size = 0; size <= 40; size++) {
      for (let turn = 0; turn < 20; turn++) {
        const record: Record<string, number> = {};
        while (Object.keys(record).length < size)
          record[`${names[Math.floor(random() * names.length)]}${Math.floor(random() * 50)}x`] = size;
        const shuffled = Object.fromEntries(Object.entries(record).sort(() => random() - 0.5));
        const body = { nested: shuffled, ...shuffled, signature: 'ab' };
        expect(canonicalJson(body, 'signature'), JSON.stringify(body)).to.equal(canonicalize({ ...body, signature: undefined }));
      }
    }
  });

  it('writes what canonicalize writes for the members and depths its one-call path leaves to the other', () => {
    const deep = (levels: number): unknown => (levels === 0 ? 'end' : { b: [deep(levels - 1)], a: levels });
    for (const text of [
      '{"b":1,"__proto__":{"x":1},"a":2}',
      '{"__proto__":{"x":1}}',
      '{"b":{"10":1,"9":2," ":3,"a":4},"a":[{"2":0,"1":1}]}',
      '{"message_info":{"to_user_id":"bot","content":"hi","msg_id":"m-1"},"client":"demo","timestamp":1,"signature":"ab"}',
      '{"a":1e400}',
      JSON.stringify(deep(40)),
      JSON.stringify(deep(31)),
    ]) {
      const parsed: unknown = JSON.parse(text);
      if (text.includes('1e400')) expect(threw(() => canonicalJson(parsed))).to.equal(true);
      else expect(canonicalJson(parsed), text).to.equal(canonicalize(parsed));
    }
    const circular: Record<string, unknown> = { a: [1] };
    (circular['a'] as unknown[]).push(circular);
    expect(() => canonicalJson(circular)).to.throw('Circular reference detected');
    const signed = JSON.parse('{"signature":"ab","b":{"y":1,"x":2},"a":1}') as unknown;
    expect(canonicalJson(signed, 'signature')).to.equal('{"a":1,"b":{"x":2,"y":1}}');
  });

  it('writes the RFC 8785 example and sorts names by UTF-16 code units', () => {
    const example = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    ) as unknown;
    expect(canonicalJson(example)).to.equal(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
    expect(canonicalJson({ '\ud83d\ude00': 1, '\ufb33': 2, '€': 3, a: 4, A: 5, '1': 6 })).to.equal(
      '{"1":6,"A":5,"a":4,"€":3,"\ud83d\ude00":1,"\ufb33":2}',
    );
  });

  it('leaves out the outermost member it is told to, and only that one', () => {
    expect(canonicalJson({ signature: 'x', b: { signature: 'kept' }, a: 1 }, 'signature')).to.equal('{"a":1,"b":{"signature":"kept"}}');
  });

  it('refuses what JCS cannot represent, as canonicalize does', () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    for (const bad of [{ a: Number.NaN }, { a: Infinity }, [-Infinity], { a: 'x\ud800' }, { 'x\udc00': 1 }, circular]) {
      expect(
        threw(() => canonicalJson(bad)),
        JSON.stringify(Object.keys(bad)),
      ).to.equal(true);
      expect(threw(() => canonicalize(bad))).to.equal(true);
    }
  });

  it('follows JSON.stringify where a JavaScript value is not JSON (what goes on the wire)', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const value = { a: undefined, b: () => 1, c: Symbol('c'), d: [undefined, () => 1, 2], e: sparse, f: new Date(0), g: 'shared' };
    expect(canonicalJson(value)).to.equal(canonicalJson(JSON.parse(JSON.stringify(value))));
    expect(canonicalJson(value)).to.equal('{"d":[null,null,2],"e":[1,null,3],"f":"1970-01-01T00:00:00.000Z","g":"shared"}');
    const listWithToJson = Object.assign([1], { toJSON: () => ({ b: 1, a: [2, new Date(0)] }) });
    expect(canonicalJson({ z: [listWithToJson] })).to.equal('{"z":[{"a":[2,"1970-01-01T00:00:00.000Z"],"b":1}]}');
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).to.equal('{"a":{"x":1},"b":{"x":1}}'); // a repeat is not a cycle
  });
});
