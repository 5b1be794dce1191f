import { createRedisKeys } from '@dialog-relay/redis';
import { expect } from 'chai';
import { CANCEL_PART, SCHEDULE, SCHEDULE_PART, STATUS_PART } from '../src/ingress.lua.js';
import { conversationKeys, conversationKeysFor } from '../src/turn-keys.js';

describe('conversation keys of the turn scripts', () => {
  const keys = createRedisKeys('dr-test:');
  const c = 'c_srYVmjoDYDjODkyJSiXJng';

  it('names every key of a conversation as RedisKeys does', () => {
    const all = conversationKeys(keys, c);
    expect(Object.keys(all)).to.have.length(12);
    expect(all.pending).to.equal(keys.pendingReplies(c));
    expect(all.waiting).to.equal(keys.waitingConversations(keys.shardOf(c)));
    expect(all.deliveries).to.equal(keys.conversationDeliveries(c));
  });

  for (const part of [STATUS_PART, CANCEL_PART, SCHEDULE_PART, SCHEDULE]) {
    it(`builds for ${part.name} exactly the conversation keys it declares, named as in the whole set`, () => {
      const all: Record<string, string> = conversationKeys(keys, c);
      const some: Record<string, string> = conversationKeysFor(keys, c, part.keys);
      const declared = part.keys.filter((name) => name in all);
      expect(Object.keys(some)).to.deep.equal(declared);
      for (const name of declared) expect(some[name], name).to.equal(all[name]);
    });
  }

  it('builds the whole set and any part of it alike', () => {
    const all: Record<string, string> = conversationKeys(keys, c);
    expect(conversationKeysFor(keys, c, Object.keys(all))).to.deep.equal(all);
  });

  it('builds 5 of the 12 for a status read', () => {
    expect(Object.keys(conversationKeysFor(keys, c, STATUS_PART.keys))).to.have.length(5);
  });
});
