import { expect } from 'chai';
import { createRedisKeys, planKeyMove, type KeySource } from '../src/index.js';

describe('where a key of another layout goes (shards migrate)', () => {
  const [from, to] = [createRedisKeys('dr:', 8), createRedisKeys('dr:', 16)];
  const tagged: KeySource = { prefix: 'dr:', tags: new Set(from.shardTags) };
  const c = 'c_AbCdEfGhIjKlMnOpQrStUv';

  it('moves what lasts of a conversation to its shard in the new layout', () => {
    expect(planKeyMove(from.autoReplyStopped(c), tagged, to)).to.deep.equal({ kind: 'move', to: to.autoReplyStopped(c) });
    expect(planKeyMove(from.contextMessages(c), tagged, to)).to.deep.equal({ kind: 'move', to: to.contextMessages(c) });
    expect(planKeyMove(from.scheduledMessage(c, 'm:1/x'), tagged, to)).to.deep.equal({ kind: 'move', to: to.scheduledMessage(c, 'm:1/x') });
    const id = 'dlv_0190f1a2b3c4d5e6f708192a3b4c5d6e_s5';
    expect(planKeyMove(from.deliveryAttempts(id), tagged, to)).to.deep.equal({ kind: 'move', to: to.deliveryAttempts(id) });
    expect(planKeyMove(from.deadLetters(5), tagged, to)).to.deep.equal({ kind: 'dead-letters' });
  });

  it('refuses replies on their way, drops debounce times, leaves queues and other layouts alone', () => {
    expect(planKeyMove(from.pendingReplies(c), tagged, to).kind).to.equal('blocks');
    expect(planKeyMove(from.replyBatch(c), tagged, to).kind).to.equal('blocks');
    expect(planKeyMove(from.attemptsInFlight(c), tagged, to).kind).to.equal('blocks');
    expect(planKeyMove(from.pendingSince(c), tagged, to).kind).to.equal('drop');
    expect(planKeyMove(`${from.bullPrefix(2)}:replies:wait`, tagged, to).kind).to.equal('queue');
    expect(planKeyMove(to.autoReplyStopped('c_other_layout_only_x'), { ...tagged, tags: new Set(['r99.0']) }, to).kind).to.equal('keep');
    expect(planKeyMove(from.clients, tagged, to).kind).to.equal('keep');
    expect(planKeyMove(from.idempotency('acme', 'auto_dialog', 'm'), tagged, to).kind).to.equal('keep');
  });
});
