import { expect } from 'chai';
import { CLUSTER_SLOTS, createRedisKeys, isRedisUnavailableError, shardTags, slotOf } from '../src/index.js';

describe('redis keys', () => {
  it('puts every key under the configured prefix', () => {
    const keys = createRedisKeys('p1:');
    expect(keys.clients).to.equal('p1:clients');
    const tag = keys.shardTags[keys.shardOf('c_x')]!;
    expect(keys.contextOrder('c_x')).to.equal(`p1:{${tag}}:ctx:c_x:order`);
    expect(keys.bullPrefix(3)).to.equal(`p1:{${keys.shardTags[3]!}}:bull`);
  });

  it('spells every key as the data in Redis has it: a change of layout would strand what is stored', () => {
    const k = createRedisKeys('dr:', 16);
    const c = 'shop:cust 1:bot/2';
    const d = 'dlv_0192f0c4-7b1e-7cc2-9d2e-6f1f5a7c1e3b_s7';
    const client = 'shop:eu';
    const msg = 'm:1/é';
    const spelled = (): Record<string, string> => ({
      shardCount: k.shardCount,
      replicationFence: k.replicationFence,
      clients: k.clients,
      rateWindow: k.rateWindow(client, 1764300000),
      replay: k.replay(client, 'ab12'),
      idempotency: k.idempotency(client, 'auto_dialog', msg),
      contextOrder: k.contextOrder(c),
      contextMessages: k.contextMessages(c),
      messageConversation: k.messageConversation(client, msg),
      autoReplyStopped: k.autoReplyStopped(c),
      pendingReplies: k.pendingReplies(c),
      scheduledMessage: k.scheduledMessage(c, msg),
      pendingSince: k.pendingSince(c),
      pendingOldest: k.pendingOldest(c),
      pausedUntil: k.pausedUntil(c),
      replyGeneration: k.replyGeneration(c),
      replyBatch: k.replyBatch(c),
      waitingConversations: k.waitingConversations(3),
      attemptsInFlight: k.attemptsInFlight(c),
      delivery: k.delivery(d),
      deliveryScanPattern: k.deliveryScanPattern(3),
      deliveryAttempts: k.deliveryAttempts(d),
      conversationDeliveries: k.conversationDeliveries(c),
      deadLetters: k.deadLetters(3),
      abortChannel: k.abortChannel,
      abortedChannel: k.abortedChannel,
      bullPrefix: k.bullPrefix(3),
    });
    // The layout as 8fa9238 wrote it (and every release before it since the hash tags).
    const stored = {
      shardCount: 'dr:meta:queue-shards',
      replicationFence: 'dr:meta:replication-fence',
      clients: 'dr:clients',
      rateWindow: 'dr:{c:shop%3Aeu}:rate:1764300000',
      replay: 'dr:{c:shop%3Aeu}:replay:ab12',
      idempotency: 'dr:{c:shop%3Aeu}:idem:auto_dialog:m%3A1%2F%C3%A9',
      contextOrder: 'dr:{r1.60}:ctx:shop:cust 1:bot/2:order',
      contextMessages: 'dr:{r1.60}:ctx:shop:cust 1:bot/2:msgs',
      messageConversation: 'dr:{c:shop%3Aeu}:msgconv:m%3A1%2F%C3%A9',
      autoReplyStopped: 'dr:{r1.60}:stop:shop:cust 1:bot/2',
      pendingReplies: 'dr:{r1.60}:pending:shop:cust 1:bot/2',
      scheduledMessage: 'dr:{r1.60}:pending:shop:cust 1:bot/2:msg:m%3A1%2F%C3%A9',
      pendingSince: 'dr:{r1.60}:pending:shop:cust 1:bot/2:at',
      pendingOldest: 'dr:{r1.60}:pending:shop:cust 1:bot/2:oldest',
      pausedUntil: 'dr:{r1.60}:pause:shop:cust 1:bot/2',
      replyGeneration: 'dr:{r1.60}:gen:shop:cust 1:bot/2',
      replyBatch: 'dr:{r1.60}:batch:shop:cust 1:bot/2',
      waitingConversations: 'dr:{r3.40}:waiting-conversations',
      attemptsInFlight: 'dr:{r1.60}:attempts:shop:cust 1:bot/2',
      delivery: 'dr:{r7.2}:delivery:dlv_0192f0c4-7b1e-7cc2-9d2e-6f1f5a7c1e3b_s7',
      deliveryScanPattern: 'dr:{r3.40}:delivery:*',
      deliveryAttempts: 'dr:{r7.2}:delivery:dlv_0192f0c4-7b1e-7cc2-9d2e-6f1f5a7c1e3b_s7:attempts',
      conversationDeliveries: 'dr:{r1.60}:deliveries:shop:cust 1:bot/2',
      deadLetters: 'dr:{r3.40}:dead-letters',
      abortChannel: 'dr:signal:abort',
      abortedChannel: 'dr:signal:aborted',
      bullPrefix: 'dr:{r3.40}:bull',
    };
    expect(spelled()).to.deep.equal(stored);
    // again after keys of another client and conversation were made (the remembered client and shard)
    k.rateWindow('other', 1);
    k.contextOrder('another conversation');
    expect(spelled()).to.deep.equal(stored);
  });

  it('encodes caller-supplied parts so a colon cannot make two keys collide', () => {
    const keys = createRedisKeys('p:');
    expect(keys.idempotency('a:b', 'auto_dialog', 'm')).to.not.equal(keys.idempotency('a', 'b:auto_dialog', 'm'));
    expect(keys.messageConversation('a:b', 'c')).to.equal('p:{c:a%3Ab}:msgconv:c');
    expect(keys.rateWindow('a}b{', 1)).to.equal('p:{c:a%7Db%7B}:rate:1');
  });

  it("keeps all keys of a conversation, its deliveries, its shard's dead letters and queue in one slot", () => {
    const keys = createRedisKeys('dr:', 16);
    for (const conversationId of ['c_one', 'c_AbCdEf0123', 'c_-_x']) {
      const shard = keys.shardOf(conversationId);
      const deliveryId = `dlv_0193aa_s${shard}`;
      const slots = new Set(
        [
          keys.pendingReplies(conversationId),
          keys.pendingSince(conversationId),
          keys.pendingOldest(conversationId),
          keys.scheduledMessage(conversationId, 'm:1'),
          keys.replyGeneration(conversationId),
          keys.replyBatch(conversationId),
          keys.autoReplyStopped(conversationId),
          keys.pausedUntil(conversationId),
          keys.attemptsInFlight(conversationId),
          keys.contextOrder(conversationId),
          keys.contextMessages(conversationId),
          keys.conversationDeliveries(conversationId),
          keys.delivery(deliveryId),
          keys.deliveryAttempts(deliveryId),
          keys.deadLetters(shard),
          keys.waitingConversations(shard),
          `${keys.bullPrefix(shard)}:auto-replies:wait`,
        ].map(slotOf),
      );
      expect(slots.size, conversationId).to.equal(1);
      expect(keys.shardOfDelivery(deliveryId)).to.equal(shard);
    }
    expect(slotOf(keys.rateWindow('shop', 5))).to.equal(slotOf(keys.idempotency('shop', 'auto_dialog', 'm')));
    expect(slotOf(keys.replay('shop', 'abc'))).to.equal(slotOf(keys.messageConversation('shop', 'm')));
  });

  it('spreads the shards evenly over the slot space, so evenly over three masters (checked by slot number)', () => {
    for (const shards of [1, 3, 16, 64]) {
      const slots = shardTags(shards).map((tag) => slotOf(`{${tag}}`));
      slots.forEach((slot, k) =>
        expect(slot).to.be.within(Math.floor((k * CLUSTER_SLOTS) / shards), Math.floor(((k + 1) * CLUSTER_SLOTS) / shards) - 1),
      );
    }
    // The default 16 shards over the three masters redis-cli gives equal ranges (0-5460, 5461-10922, 10923-16383): 6 / 5 / 5.
    const perMaster = [0, 0, 0];
    for (const tag of shardTags(16)) perMaster[Math.min(2, Math.floor(slotOf(`{${tag}}`) / 5461))]! += 1;
    expect(perMaster).to.deep.equal([6, 5, 5]);
  });

  it('maps a conversation to the same shard every time, and conversations evenly over shards', () => {
    const keys = createRedisKeys('dr:', 16);
    expect(keys.shardOf('c_stable')).to.equal(createRedisKeys('other:', 16).shardOf('c_stable'));
    const counts = new Array<number>(16).fill(0);
    for (let i = 0; i < 16_000; i++) counts[keys.shardOf(`c_${i.toString(36)}x`)]! += 1;
    expect(Math.min(...counts)).to.be.above(800);
    expect(Math.max(...counts)).to.be.below(1200);
  });

  it('gives each conversation its own shard when keys of several conversations are made in turn (the shard is remembered for the last one only)', () => {
    const keys = createRedisKeys('dr:', 16);
    const ids = Array.from({ length: 200 }, (_, i) => `c_${i.toString(36)}y`);
    const fresh = (id: string) => createRedisKeys('dr:', 16).shardOf(id);
    for (let round = 0; round < 3; round++) {
      for (const id of ids) {
        expect(keys.shardOf(id), id).to.equal(fresh(id));
        expect(slotOf(keys.contextOrder(id))).to.equal(slotOf(`{${keys.shardTags[fresh(id)]!}}`));
      }
    }
    expect(new Set(ids.map((id) => keys.shardOf(id))).size).to.be.above(8);
  });

  it('classifies connection loss and OOM as unavailable, and other errors not', () => {
    const reply = new Error('OOM command not allowed when used memory > maxmemory');
    reply.name = 'ReplyError';
    expect(isRedisUnavailableError(reply)).to.equal(true);
    expect(isRedisUnavailableError(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).to.equal(true);
    // ioredis rejects the commands still waiting on a connection that closes (a master killed during a failover).
    const aborted = new Error('Command aborted due to connection close');
    aborted.name = 'AbortError';
    expect(isRedisUnavailableError(aborted)).to.equal(true);
    // A cluster command without auto-pipelining, its master down: ioredis gives up redirecting it.
    expect(
      isRedisUnavailableError(new Error('Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down')),
    ).to.equal(true);
    const syntax = new Error('ERR syntax error');
    syntax.name = 'ReplyError';
    expect(isRedisUnavailableError(syntax)).to.equal(false);
    expect(isRedisUnavailableError('nope')).to.equal(false);
  });
});
