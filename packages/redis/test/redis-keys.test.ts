import { expect } from 'chai';
import { createRedisKeys, isRedisUnavailableError } from '../src/index.js';

describe('redis keys', () => {
  it('puts every key under the configured prefix', () => {
    const keys = createRedisKeys('p1:');
    expect(keys.clients).to.equal('p1:clients');
    expect(keys.contextOrder('c_x')).to.equal('p1:ctx:c_x:order');
    expect(keys.bullPrefix).to.equal('p1:bull');
  });

  it('encodes caller-supplied parts so a colon cannot make two keys collide', () => {
    const keys = createRedisKeys('p:');
    expect(keys.idempotency('a:b', 'auto_dialog', 'm')).to.not.equal(keys.idempotency('a', 'b:auto_dialog', 'm'));
    expect(keys.messageConversation('a:b', 'c')).to.equal('p:msgconv:a%3Ab:c');
  });

  it('classifies connection loss and OOM as unavailable, and other errors not', () => {
    const reply = new Error('OOM command not allowed when used memory > maxmemory');
    reply.name = 'ReplyError';
    expect(isRedisUnavailableError(reply)).to.equal(true);
    expect(isRedisUnavailableError(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).to.equal(true);
    const syntax = new Error('ERR syntax error');
    syntax.name = 'ReplyError';
    expect(isRedisUnavailableError(syntax)).to.equal(false);
    expect(isRedisUnavailableError('nope')).to.equal(false);
  });
});
