import { expect } from 'chai';
import { checkBodyShape, checkRawBodyShape } from '../src/index.js';

describe('checkBodyShape', () => {
  it('accepts a body within 32 levels and 10,000 values', () => {
    expect(checkBodyShape({ a: [1, { b: 'c' }], d: null })).to.equal(undefined);
    let nested: unknown = 1;
    for (let i = 0; i < 31; i++) nested = [nested];
    expect(checkBodyShape(nested)).to.equal(undefined);
  });

  it('refuses a body nested deeper than 32 levels without recursing', () => {
    let nested: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) nested = [nested];
    expect(checkBodyShape(nested)).to.include({ code: 'maxDepth', path: '' });
  });

  it('refuses a body of more than 10,000 values, however flat', () => {
    expect(checkBodyShape({ list: new Array<number>(10_000).fill(0) })).to.include({ code: 'maxValues' });
    expect(checkBodyShape(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])))).to.include({ code: 'maxValues' });
  });
});

describe('checkRawBodyShape', () => {
  const raw = (text: string): Uint8Array => Buffer.from(text, 'utf8');
  const limits = { maxDepth: 3, maxValues: 6 };

  it('counts the values checkBodyShape counts, keys not included', () => {
    const body = { a: [1, { b: 'c' }], d: null };
    // body, a's array, 1, the inner object, 'c', null
    expect(checkRawBodyShape(raw(JSON.stringify(body)), limits)).to.equal(undefined);
    expect(checkBodyShape(body, limits)).to.equal(undefined);
    const more = { a: [1, { b: 'c' }], d: null, e: 0 };
    expect(checkRawBodyShape(raw(JSON.stringify(more)), limits)).to.include({ code: 'maxValues', path: '' });
    expect(checkBodyShape(more, limits)).to.include({ code: 'maxValues' });
  });

  it('does not count brackets, commas, colons or escaped quotes inside strings', () => {
    const tricky = JSON.stringify({ 'k[,{': '[[[,,,]]]{"a":1,"b":[2,3]}\\"', x: ['\\', '"]', '{'] });
    expect(checkRawBodyShape(raw(tricky), limits)).to.equal(undefined);
    expect(checkRawBodyShape(raw(tricky), { maxDepth: 2, maxValues: 6 })).to.equal(undefined);
  });

  it('allows whitespace anywhere between tokens and counts empty containers as one value', () => {
    expect(checkRawBodyShape(raw(' { "a" : [ ] ,\n\t"b" : { } , "c" : [ 1 , 2 ] } '), limits)).to.equal(undefined);
    expect(checkRawBodyShape(raw('{"a":[],"b":{},"c":[1,2,3]}'), limits)).to.include({ code: 'maxValues' });
  });

  it('refuses a container nested deeper than the limit, however small', () => {
    expect(checkRawBodyShape(raw('{"a":{"b":[1]}}'), limits)).to.equal(undefined);
    expect(checkRawBodyShape(raw('{"a":{"b":[[]]}}'), limits)).to.include({ code: 'maxDepth', path: '' });
    expect(checkRawBodyShape(raw(`{"d":${'['.repeat(1_000_000)}`))).to.include({ code: 'maxDepth' });
  });

  it('stops at the first value over the limit, before the text turns into anything invalid', () => {
    const members = Array.from({ length: 20_000 }, (_, i) => `"k${i}":0`).join(',');
    expect(checkRawBodyShape(raw(`{${members},!!! not JSON`))).to.include({
      code: 'maxValues',
      message: 'The request body holds more than 10000 JSON values.',
    });
  });

  it('reads multi-byte UTF-8 and a byte order mark without miscounting', () => {
    expect(checkRawBodyShape(raw('\ufeff{"a":"你好 😀 \\u005b","b":["é"]}'), limits)).to.equal(undefined);
  });
});
