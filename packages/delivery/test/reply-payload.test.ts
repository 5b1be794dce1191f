import { expect } from 'chai';
import { buildReplyPayload, type ReplyPayloadInput } from '../src/index.js';

const oneToOne: ReplyPayloadInput = {
  deliveryId: 'dlv-1',
  client: 'acme',
  conversationId: 'conv-1',
  inReplyTo: ['m-1', 'm-2'],
  replyMsgId: 'r-1',
  groupId: undefined,
  groupName: undefined,
  boundAccountId: 'bot-account',
  customerId: 'cust-9',
  content: [{ type: 'text', content: 'Hello' }],
  handoff: false,
  sources: ['opening-hours'],
  createTimestamp: 1_736_942_400,
};

describe('buildReplyPayload', () => {
  it('builds a 1:1 reply without any group keys', () => {
    const payload = JSON.parse(buildReplyPayload(oneToOne)) as Record<string, unknown>;
    expect(payload).to.deep.equal({
      type: 'auto_dialog.reply',
      delivery_id: 'dlv-1',
      client: 'acme',
      conversation_id: 'conv-1',
      in_reply_to: ['m-1', 'm-2'],
      handoff: false,
      sources: ['opening-hours'],
      message_info: {
        msg_id: 'r-1',
        from_user_id: 'bot-account',
        to_user_id: 'cust-9',
        content: 'Hello',
        message_type: 1,
        event_type: 'auto_dialog',
        from_user_type: 4,
        create_timestamp: 1_736_942_400,
      },
    });
    const info = payload.message_info as Record<string, unknown>;
    for (const key of ['group_id', 'group_name', 'at_list', 'files_info']) expect(info).not.to.have.property(key);
  });

  it('builds a group reply with text and image parts, at-ing the customer', () => {
    const body = buildReplyPayload({
      ...oneToOne,
      groupId: 'g-7',
      groupName: 'VIP customers',
      content: [
        { type: 'text', content: 'Here is the chart' },
        { type: 'image', content: 'https://cdn.example.com/chart.png' },
        { type: 'text', content: 'Anything else?' },
      ],
    });
    const payload = JSON.parse(body) as { message_info: Record<string, unknown> };
    expect(payload.message_info).to.deep.equal({
      msg_id: 'r-1',
      group_id: 'g-7',
      group_name: 'VIP customers',
      from_user_id: 'bot-account',
      to_user_id: 'cust-9',
      at_list: ['cust-9'],
      content: 'Here is the chart\nAnything else?',
      files_info: [{ content: 'https://cdn.example.com/chart.png', file_type: 'image' }],
      message_type: 1,
      event_type: 'auto_dialog',
      from_user_type: 4,
      create_timestamp: 1_736_942_400,
    });
  });

  it('omits content when the reply has files only', () => {
    const body = buildReplyPayload({ ...oneToOne, content: [{ type: 'voice', content: 'aGVsbG8=' }] });
    const info = (JSON.parse(body) as { message_info: Record<string, unknown> }).message_info;
    expect(info).not.to.have.property('content');
    expect(info.files_info).to.deep.equal([{ content: 'aGVsbG8=', file_type: 'voice' }]);
  });
});
