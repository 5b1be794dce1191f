import { expect } from 'chai';
import { createRedisKeys } from '@dialog-relay/redis';
import { conversationIdOf } from '../src/index.js';

const ID = /^c_[A-Za-z0-9_-]{22}$/;

describe('conversationIdOf', () => {
  it('gives an opaque c_ + 22 base64url characters id, also for odd input', () => {
    for (const id of [
      conversationIdOf('shop', { group_id: 'g1' }),
      conversationIdOf('shop', { from_user_id: 'u1', to_user_id: 'u2' }),
      conversationIdOf('', {}),
      conversationIdOf('客户:/?#', { from_user_id: 'ü 👋', to_user_id: 'a:b' }),
    ]) {
      expect(id).to.match(ID);
    }
  });

  it('gives the ids earlier releases gave (stored conversations are found by them): SHA-256 of the JSON parts, 16 bytes as base64url', () => {
    expect(conversationIdOf('shop', { group_id: 'g1' })).to.equal('c_srYVmjoDYDjODkyJSiXJng');
    expect(conversationIdOf('shop', { from_user_id: 'u2', to_user_id: 'u1' })).to.equal('c_ATWnkUUWYKNu_ol2CCygMg');
    expect(conversationIdOf('客户:/?#', { from_user_id: 'ü 👋', to_user_id: 'a:b' })).to.equal('c_4QjvVHKVxT3t3F2tP1o1zw');
  });

  it('is stable across calls', () => {
    expect(conversationIdOf('shop', { group_id: 'g1' })).to.equal(conversationIdOf('shop', { group_id: 'g1' }));
    expect(conversationIdOf('shop', { from_user_id: 'a', to_user_id: 'b' })).to.equal(
      conversationIdOf('shop', { from_user_id: 'a', to_user_id: 'b' }),
    );
  });

  it('treats a pair as unordered', () => {
    expect(conversationIdOf('shop', { from_user_id: 'alice', to_user_id: 'bob' })).to.equal(
      conversationIdOf('shop', { from_user_id: 'bob', to_user_id: 'alice' }),
    );
  });

  it('counts a missing side as the empty string', () => {
    const only = conversationIdOf('shop', { from_user_id: 'a' });
    expect(conversationIdOf('shop', { to_user_id: 'a' })).to.equal(only);
    expect(conversationIdOf('shop', { from_user_id: 'a', to_user_id: '' })).to.equal(only);
    expect(conversationIdOf('shop', { from_user_id: 'a', to_user_id: 'b' })).to.not.equal(only);
  });

  it('uses the group when group_id is non-empty, ignoring the users', () => {
    const group = conversationIdOf('shop', { group_id: 'g1' });
    expect(conversationIdOf('shop', { group_id: 'g1', from_user_id: 'a', to_user_id: 'b' })).to.equal(group);
    expect(conversationIdOf('shop', { group_id: 'g1', from_user_id: 'c' })).to.equal(group);
    expect(conversationIdOf('shop', { group_id: 'g2' })).to.not.equal(group);
  });

  it('treats an empty group_id as no group', () => {
    expect(conversationIdOf('shop', { group_id: '', from_user_id: 'a', to_user_id: 'b' })).to.equal(
      conversationIdOf('shop', { from_user_id: 'a', to_user_id: 'b' }),
    );
  });

  it('differs between clients', () => {
    expect(conversationIdOf('shop1', { group_id: 'g' })).to.not.equal(conversationIdOf('shop2', { group_id: 'g' }));
    expect(conversationIdOf('shop1', { from_user_id: 'a', to_user_id: 'b' })).to.not.equal(
      conversationIdOf('shop2', { from_user_id: 'a', to_user_id: 'b' }),
    );
  });

  it('keeps group and pair namespaces apart', () => {
    expect(conversationIdOf('shop', { group_id: 'x' })).to.not.equal(conversationIdOf('shop', { from_user_id: 'x' }));
    expect(conversationIdOf('shop', { group_id: 'x' })).to.not.equal(conversationIdOf('shop', { from_user_id: 'x', to_user_id: 'x' }));
  });

  it('does not confuse boundaries between parts', () => {
    const ids = new Set([
      conversationIdOf('shop', { from_user_id: 'ab', to_user_id: 'c' }),
      conversationIdOf('shop', { from_user_id: 'a', to_user_id: 'bc' }),
      conversationIdOf('shopa', { from_user_id: 'b', to_user_id: 'c' }),
      conversationIdOf('shop', { from_user_id: 'a","b', to_user_id: 'c' }),
      conversationIdOf('shop', { group_id: 'a,b' }),
      conversationIdOf('shop,a', { group_id: 'b' }),
    ]);
    expect(ids.size).to.equal(6);
  });

  it('is used verbatim in the Redis keys', () => {
    const keys = createRedisKeys('p:');
    const id = conversationIdOf('shop', { group_id: 'g' });
    const tag = keys.shardTags[keys.shardOf(id)]!;
    expect(keys.contextOrder(id)).to.equal(`p:{${tag}}:ctx:${id}:order`);
    expect(keys.autoReplyStopped(id)).to.equal(`p:{${tag}}:stop:${id}`);
  });
});
