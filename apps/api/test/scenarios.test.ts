import { expect } from 'chai';
import { createRedis, type Redis } from '@dialog-relay/redis';
import { bodyFor, msgId, post, sign, startTestApi, type Body, type TestApi } from './support/test-api.js';

describe('synchronous scenarios and auto_dialog acceptance over HTTP', () => {
  let t: TestApi;
  let redis: Redis;
  before(async () => {
    t = await startTestApi();
    redis = createRedis(t.config.redis, 'request', { name: 'scenario-test' });
  });
  after(async () => {
    redis.disconnect();
    await t.close();
  });

  const contextIds = async (conversationId: string): Promise<string[]> => redis.lrange(t.keys.contextOrder(conversationId), 0, -1);

  describe('assist_dialog', () => {
    it('suggests a knowledge-based reply in data.content and records the message but not the suggestion', async () => {
      const body = bodyFor('assist_dialog', { from_user_id: 'assist-customer', content: 'When are you open?' });
      const answer = await post(t.url, sign(body));
      expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
      const data = answer.json.data!;
      const content = data['content'] as { type: string; content: string }[];
      expect(content[0]?.type).to.equal('text');
      expect(content[0]?.content).to.match(/Monday|open/i);
      expect(data['in_reply_to']).to.deep.equal([body.message_info!['msg_id']]);
      expect(data['msg_id']).to.be.a('string').and.not.equal(body.message_info!['msg_id']);
      expect(await contextIds(data['conversation_id'] as string)).to.deep.equal([body.message_info!['msg_id']]);
    });

    it('reuses the conversation of an earlier auto_dialog message with the same msg_id', async () => {
      const shared = msgId('shared');
      const auto = await post(
        t.url,
        sign(
          bodyFor(
            'auto_dialog',
            { msg_id: shared, from_user_id: 'cust-9', to_user_id: 'bound-9', content: 'I want to return my order' },
            { send_url: 'http://127.0.0.1:9/hook' },
          ),
        ),
      );
      expect(auto.status).to.equal(202);
      const assist = await post(
        t.url,
        sign(
          bodyFor('assist_dialog', {
            msg_id: shared,
            from_user_id: 'agent-console',
            to_user_id: 'someone-else',
            content: 'I want to return my order',
          }),
        ),
      );
      expect(assist.status).to.equal(200);
      expect(assist.json.data!['conversation_id']).to.equal(auto.json.data!['conversation_id']);
      expect(assist.json.data!['context_reused']).to.equal(true);
      expect(await contextIds(auto.json.data!['conversation_id'] as string)).to.deep.equal([shared]);
    });
  });

  describe('website_dialog', () => {
    it('answers at once and records both the message and the reply', async () => {
      const body = bodyFor('website_dialog', {
        msg_id: msgId('web'),
        from_user_id: 'visitor-1',
        to_user_id: 'site-bot',
        content: 'how long does delivery take',
      });
      const answer = await post(t.url, sign(body));
      expect(answer.status).to.equal(200);
      const data = answer.json.data!;
      expect((data['content'] as { content: string }[])[0]?.content).to.match(/deliver|ship|day/i);
      expect(await contextIds(data['conversation_id'] as string)).to.deep.equal([body.message_info!['msg_id'], data['msg_id']]);
    });

    // A reply from the message alone is made before admission and written in admission's script
    // (docs/design/decisions.md): a refused request, or a repeat, must write nothing.
    it('records nothing for a request its admission refuses or answers again, though the reply was made first', async () => {
      const parties = { from_user_id: 'visitor-refused', to_user_id: 'site-bot' };
      const exact = sign(bodyFor('website_dialog', { ...parties, content: 'When are you open?' }));
      const first = await post(t.url, exact);
      expect(first.status).to.equal(200);
      expect(first.json.data!['sources']).to.deep.equal(['opening-hours']);
      const replayed = await post(t.url, exact);
      expect(replayed.status).to.equal(409);
      expect(replayed.json.error).to.equal('replayed_request');
      const withId = bodyFor('website_dialog', { ...parties, msg_id: msgId('web-again'), content: 'When are you open?' });
      const answered = await post(t.url, sign(withId));
      const again = await post(t.url, sign({ ...withId, timestamp: (withId.timestamp as number) + 1 }));
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.json.data).to.deep.equal(answered.json.data);
      const conversation = first.json.data!['conversation_id'] as string;
      // the first message (its id made up: it had none) and reply, then the second and its reply: nothing of the refused or repeated
      const recorded = await contextIds(conversation);
      expect(recorded).to.have.length(4);
      expect(recorded.slice(1)).to.deep.equal([first.json.data!['msg_id'], withId.message_info!['msg_id'], answered.json.data!['msg_id']]);
    });

    it('answers a follow-up from the earlier message, read with admission', async () => {
      const parties = { from_user_id: 'visitor-follow', to_user_id: 'site-bot' };
      await post(t.url, sign(bodyFor('website_dialog', { ...parties, content: 'What are your opening hours?' })));
      const followUp = await post(t.url, sign(bodyFor('website_dialog', { ...parties, content: 'and at Christmas?' })));
      expect(followUp.json.data).to.include({ handoff: false });
      expect(followUp.json.data!['sources']).to.deep.equal(['opening-hours']);
    });
  });

  describe('cmd_dialog', () => {
    const participants = { from_user_id: 'bound-cmd', to_user_id: 'cust-cmd' };
    const command = (content: string) => post(t.url, sign(bodyFor('cmd_dialog', { ...participants, content: `  ${content} ` })));
    const auto = () =>
      post(
        t.url,
        sign(
          bodyFor(
            'auto_dialog',
            { from_user_id: 'cust-cmd', to_user_id: 'bound-cmd', content: 'hello?' },
            { send_url: 'http://127.0.0.1:9/hook' },
          ),
        ),
      );

    it('stops, reports and resumes auto replies of the conversation', async () => {
      const stop = await command('stop_auto_reply');
      expect(stop.status).to.equal(200);
      expect(stop.json.data).to.include({ command: 'stop_auto_reply', auto_reply: 'stopped', cancelled: 0 });
      const suppressed = await auto();
      expect(suppressed.status).to.equal(202);
      expect(suppressed.json.data).to.include({ status: 'suppressed', conversation_id: stop.json.data!['conversation_id'] });
      const status = await command('auto_reply_status');
      expect(status.json.data).to.include({ auto_reply: 'stopped' });
      expect(status.json.data!['pending']).to.deep.equal([]);
      const resume = await command('resume_auto_reply');
      expect(resume.json.data).to.include({ auto_reply: 'active' });
      expect((await auto()).json.data).to.include({ status: 'queued' });
    });

    it('writes nothing for a command its admission refuses, though its writes share the script: an exact replay of a resume leaves the stop', async () => {
      const parties = { from_user_id: 'bound-refused', to_user_id: 'cust-refused' };
      const resume = sign(bodyFor('cmd_dialog', { ...parties, content: 'resume_auto_reply' }));
      expect((await post(t.url, resume)).status).to.equal(200);
      const stop = await post(t.url, sign(bodyFor('cmd_dialog', { ...parties, content: 'stop_auto_reply' })));
      expect(stop.json.data).to.include({ auto_reply: 'stopped' });
      const replayed = await post(t.url, resume);
      expect(replayed.status).to.equal(409);
      expect(replayed.json.error).to.equal('replayed_request');
      const status = await post(t.url, sign(bodyFor('cmd_dialog', { ...parties, content: 'auto_reply_status' })));
      expect(status.json.data).to.include({ auto_reply: 'stopped' });
    });

    it('counts the messages whose pending reply a stop cancelled', async () => {
      const conversation = { from_user_id: 'cust-cancel', to_user_id: 'bound-cancel' };
      for (let i = 0; i < 3; i++) {
        await post(
          t.url,
          sign(bodyFor('auto_dialog', { ...conversation, content: `message ${i}` }, { send_url: 'http://127.0.0.1:9/hook' })),
        );
      }
      const status = await post(t.url, sign(bodyFor('cmd_dialog', { ...conversation, content: 'auto_reply_status' })));
      expect((status.json.data!['pending'] as { msg_ids: string[] }[]).flatMap((p) => p.msg_ids)).to.have.length(3);
      const stop = await post(t.url, sign(bodyFor('cmd_dialog', { ...conversation, content: 'stop_auto_reply' })));
      expect(stop.json.data).to.include({ auto_reply: 'stopped', cancelled: 3 });
    });

    it("answers a repeated msg_id with the first answer as its script stored it: the stop's count, the suppressed message", async () => {
      const conversation = { from_user_id: 'cust-replay', to_user_id: 'bound-replay' };
      const autoId = msgId('queued');
      await post(t.url, sign(bodyFor('auto_dialog', { ...conversation, msg_id: autoId }, { send_url: 'http://127.0.0.1:9/hook' })));
      const stopBody = bodyFor('cmd_dialog', { ...conversation, content: 'stop_auto_reply', msg_id: msgId('stop') });
      const stop = await post(t.url, sign(stopBody));
      const stopAgain = await post(t.url, sign({ ...stopBody, timestamp: (stopBody.timestamp as number) + 1 }));
      expect(stopAgain.headers.get('idempotent-replayed')).to.equal('true');
      expect(stopAgain.json.data).to.deep.equal(stop.json.data);
      expect(stop.json.data).to.include({ cancelled: 1 });
      const suppressedBody = bodyFor(
        'auto_dialog',
        { ...conversation, msg_id: msgId('suppressed') },
        { send_url: 'http://127.0.0.1:9/hook' },
      );
      const suppressed = await post(t.url, sign(suppressedBody));
      const again = await post(t.url, sign({ ...suppressedBody, timestamp: (suppressedBody.timestamp as number) + 1 }));
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.json.data).to.deep.equal(suppressed.json.data);
      expect(suppressed.json.data).to.include({ status: 'suppressed' });
    });
  });

  describe('cmd_dialog auto_reply_status with a msg_id', () => {
    const conversation = { from_user_id: 'cust-status-replay', to_user_id: 'bound-status-replay' };
    const cmd = (content: string, extra: Record<string, unknown> = {}) => bodyFor('cmd_dialog', { ...conversation, content, ...extra });
    const again = (body: Body) => post(t.url, sign({ ...body, timestamp: (body.timestamp as number) + 1 }));

    it('answers a repeat with the first answer: what was read then, whatever changed since and whatever the repeat asks', async () => {
      // a waiting message (no worker runs here): the status lists it and the turn that waits for it
      await post(
        t.url,
        sign(
          bodyFor(
            'auto_dialog',
            { ...conversation, msg_id: msgId('waiting'), content: 'où est mon colis ? 包裹在哪里' },
            { send_url: 'http://127.0.0.1:9/hook' },
          ),
        ),
      );
      const statusBody = cmd('auto_reply_status', { msg_id: msgId('status') });
      const first = await post(t.url, sign(statusBody));
      expect(first.status).to.equal(200);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      const data = first.json.data!;
      expect(data).to.include({ command: 'auto_reply_status', auto_reply: 'active', paused_until: null });
      expect(data['pending']).to.have.length(1);
      expect(data['deliveries']).to.deep.equal([]);

      const stop = await post(t.url, sign(cmd('stop_auto_reply')));
      expect(stop.json.data).to.include({ cancelled: 1 });
      const repeat = await again(statusBody);
      expect(repeat.status).to.equal(200);
      expect(repeat.headers.get('idempotent-replayed')).to.equal('true');
      expect(repeat.json.request_id).to.equal(first.json.request_id);
      expect(repeat.json.data).to.deep.equal(data);

      // the same msg_id asking for another command gets the first answer, and does nothing
      await post(t.url, sign(cmd('resume_auto_reply')));
      const otherCommand = await post(
        t.url,
        sign(cmd('stop_auto_reply', { msg_id: (statusBody.message_info as { msg_id: string }).msg_id })),
      );
      expect(otherCommand.headers.get('idempotent-replayed')).to.equal('true');
      expect(otherCommand.json.data).to.deep.equal(data);
      expect((await post(t.url, sign(cmd('auto_reply_status')))).json.data).to.include({ auto_reply: 'active' });
    });

    it('stores an answer about as small as the status it shows, whatever the waiting messages hold', async () => {
      // three waiting messages of 9,000 characters: the status shows their msg_ids, not their texts
      const long = { from_user_id: 'cust-status-long', to_user_id: 'bound-status-long' };
      const waiting = [msgId('long'), msgId('long'), msgId('long')];
      for (const id of waiting) {
        const accepted = await post(
          t.url,
          sign(bodyFor('auto_dialog', { ...long, msg_id: id, content: 'é'.repeat(9000) }, { send_url: 'http://127.0.0.1:9/hook' })),
        );
        expect(accepted.status).to.equal(202);
      }
      const id = msgId('status-long');
      const statusBody = bodyFor('cmd_dialog', { ...long, content: 'auto_reply_status', msg_id: id });
      const first = await post(t.url, sign(statusBody));
      expect(first.status).to.equal(200);
      expect(first.json.data!['pending']).to.deep.equal([{ msg_ids: waiting, state: 'waiting' }]);
      const stored = await redis.get(t.keys.idempotency('shop', 'cmd_dialog', id));
      expect(stored?.length ?? 0).to.be.within(1, 2048);
      const repeat = await again(statusBody);
      expect(repeat.headers.get('idempotent-replayed')).to.equal('true');
      expect(repeat.json.data).to.deep.equal(first.json.data);
    });
  });

  describe('auto_dialog acceptance', () => {
    const send_url = 'http://127.0.0.1:9/hook';
    it('queues a reply for a customer and answers 202 with the conversation and msg_id', async () => {
      const id = msgId('auto');
      const answer = await post(t.url, sign(bodyFor('auto_dialog', { msg_id: id }, { send_url })));
      expect(answer.status).to.equal(202);
      expect(answer.json.data).to.include({ msg_id: id, status: 'queued' });
      expect(answer.json.data!['conversation_id']).to.match(/^c_/);
    });

    it('queues the message itself with its reply: the context message the context records (content parts, create_timestamp)', async () => {
      const id = msgId('carried');
      const info = {
        msg_id: id,
        from_user_id: `cust-${id}`,
        content: '',
        create_timestamp: 1_700_000_123,
        files_info: [
          { file_type: 'image', content: 'https://files.example/lamp.png' },
          { file_type: 'image', content: 'https://files.example/room.jpg' },
        ],
      };
      const answer = await post(t.url, sign(bodyFor('auto_dialog', info, { send_url })));
      expect(answer.json.data, JSON.stringify(answer.json)).to.include({ status: 'queued' });
      const conversationId = answer.json.data!['conversation_id'] as string;
      const queued = (await redis.lrange(t.keys.pendingReplies(conversationId), 0, -1)).map(
        (json) => JSON.parse(json) as Record<string, unknown>,
      );
      const recorded = JSON.parse((await redis.hget(t.keys.contextMessages(conversationId), id))!) as Record<string, unknown>;
      expect(queued).to.have.length(1);
      // The due message carries the context message itself: the very object the context records.
      expect(queued[0]!['message']).to.deep.equal(recorded);
      expect(recorded).to.include({ msg_id: id, create_timestamp: 1_700_000_123 });
      expect(recorded['content']).to.deep.equal([
        { type: 'image', content: 'https://files.example/lamp.png' },
        { type: 'image', content: 'https://files.example/room.jpg' },
      ]);
    });

    for (const [type, who] of [
      [1, 'the bound account'],
      [3, 'staff'],
      [4, 'the bot itself'],
    ] as const) {
      it(`records a message from ${who} without queuing a reply`, async () => {
        const answer = await post(t.url, sign(bodyFor('auto_dialog', { from_user_type: type }, { send_url })));
        expect(answer.json.data).to.include({ status: 'recorded' });
      });
    }

    it('replies in a group only when the bound account is @-mentioned', async () => {
      const group = { group_id: 'g-1', from_user_id: 'cust-g', to_user_id: 'bound-g' };
      expect((await post(t.url, sign(bodyFor('auto_dialog', group, { send_url })))).json.data).to.include({ status: 'recorded' });
      expect((await post(t.url, sign(bodyFor('auto_dialog', { ...group, at_list: ['bound-g'] }, { send_url })))).json.data).to.include({
        status: 'queued',
      });
    });

    it('uses the client default send_url and its "always" group policy', async () => {
      const answer = await post(t.url, sign(bodyFor('auto_dialog', { group_id: 'g-2' }, { client: 'hub' }), 'hub-secret-00001'));
      expect(answer.status, JSON.stringify(answer.json)).to.equal(202);
      expect(answer.json.data).to.include({ status: 'queued' });
    });

    it('accepts send_url inside message_info too', async () => {
      const answer = await post(t.url, sign(bodyFor('auto_dialog', { send_url })));
      expect(answer.json.data).to.include({ status: 'queued' });
    });
  });
});
