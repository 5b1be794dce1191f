import { expect } from 'chai';
import type { FromUserType, MessageInfo } from '@dialog-relay/contracts';
import { contextMessageFrom } from '../src/index.js';

const base: MessageInfo = { message_type: 1, event_type: 'auto_dialog', create_timestamp: 1_700_000_000 };

describe('contextMessageFrom', () => {
  it('maps from_user_type to a role', () => {
    const roles: [FromUserType | undefined, string][] = [
      [2, 'customer'],
      [1, 'agent'],
      [3, 'agent'],
      [4, 'bot'],
      [undefined, 'customer'],
    ];
    for (const [fromUserType, role] of roles) {
      const info: MessageInfo = fromUserType === undefined ? { ...base } : { ...base, from_user_type: fromUserType };
      expect(contextMessageFrom(info, 'm1').role, `from_user_type ${fromUserType}`).to.equal(role);
    }
  });

  it('treats senders of assist and website dialogs (no from_user_type) as customers', () => {
    expect(contextMessageFrom({ ...base, event_type: 'assist_dialog' }, 'm').role).to.equal('customer');
    expect(contextMessageFrom({ ...base, event_type: 'website_dialog' }, 'm').role).to.equal('customer');
  });

  it('puts the text first, then the files in order, and copies the other fields', () => {
    const info: MessageInfo = {
      ...base,
      event_type: 'assist_dialog',
      msg_id: 'ignored',
      from_user_id: 'u1',
      from_user_type: 2,
      content: 'see attached',
      files_info: [
        { file_type: 'image', content: 'https://x/a.png' },
        { file_type: 'document', content: 'https://x/b.pdf' },
        { file_type: 'voice', content: 'UklGRg==' },
      ],
    };
    expect(contextMessageFrom(info, 'm9')).to.deep.equal({
      msg_id: 'm9',
      role: 'customer',
      from_user_id: 'u1',
      content: [
        { type: 'text', content: 'see attached' },
        { type: 'image', content: 'https://x/a.png' },
        { type: 'document', content: 'https://x/b.pdf' },
        { type: 'voice', content: 'UklGRg==' },
      ],
      event_type: 'assist_dialog',
      create_timestamp: 1_700_000_000,
    });
  });

  it('leaves out empty, blank or missing text, and keeps a text with anything but white space as it came', () => {
    const files = [{ file_type: 'image' as const, content: 'https://x/a.png' }];
    expect(contextMessageFrom({ ...base, content: '', files_info: files }, 'm').content).to.deep.equal([
      { type: 'image', content: 'https://x/a.png' },
    ]);
    expect(contextMessageFrom({ ...base, content: ' \n\t\u3000 ', files_info: files }, 'm').content).to.deep.equal([
      { type: 'image', content: 'https://x/a.png' },
    ]);
    expect(contextMessageFrom({ ...base }, 'm').content).to.deep.equal([]);
    expect(contextMessageFrom({ ...base, content: ' ok? ' }, 'm').content).to.deep.equal([{ type: 'text', content: ' ok? ' }]);
  });

  it('defaults from_user_id to the empty string', () => {
    const message = contextMessageFrom({ ...base, content: 'hi' }, 'm');
    expect(message.from_user_id).to.equal('');
    expect(message.content).to.deep.equal([{ type: 'text', content: 'hi' }]);
  });
});
