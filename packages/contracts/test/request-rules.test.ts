import { expect } from 'chai';
import { COMMANDS, createRequestValidator, leadingErrorCode } from '../src/index.js';
import { assist, command, errorsOf, files, problems, request, website } from './fixtures.js';

describe('request rules', () => {
  const validate = createRequestValidator();

  describe('rule 2: content or files', () => {
    it('answers content_or_files_required when neither content nor files_info is given', () => {
      expect(problems(validate(request({ content: undefined })))).to.deep.equal(['content_or_files_required /message_info/content']);
    });

    it('counts whitespace-only content and an empty files_info as empty', () => {
      expect(problems(validate(request({ content: ' \n\t ', files_info: [] })))).to.deep.equal([
        'content_or_files_required /message_info/content',
      ]);
    });

    it('accepts files without content', () => {
      expect(validate(request({ content: undefined, files_info: files('image') })).ok).to.equal(true);
    });
  });

  describe('rule 3: quote', () => {
    it('answers quote_required when message_type is 2 without quote', () => {
      expect(problems(validate(request({ message_type: 2 })))).to.deep.equal(['quote_required /message_info/quote']);
    });

    it('answers quote_required for each member missing from the quote', () => {
      expect(problems(validate(request({ message_type: 2, quote: {} })))).to.deep.equal([
        'quote_required /message_info/quote/msg_id',
        'quote_required /message_info/quote/message_type',
      ]);
      expect(problems(validate(request({ message_type: 2, quote: { msg_id: '', message_type: 1 } })))).to.deep.equal([
        'quote_required /message_info/quote/msg_id',
      ]);
    });

    it('accepts a quoted message with a complete quote, extra quote members included', () => {
      const quote = { msg_id: 'm-0', message_type: 1, content: 'earlier' };
      expect(validate(request({ message_type: 2, quote })).ok).to.equal(true);
    });
  });

  describe('rule 4: sender or group', () => {
    it('answers sender_or_group_required when from_user_id and group_id are both absent or empty', () => {
      expect(problems(validate(request({ from_user_id: undefined })))).to.deep.equal([
        'sender_or_group_required /message_info/from_user_id',
      ]);
      expect(problems(validate(request({ from_user_id: '', group_id: '  ' })))).to.deep.equal([
        'sender_or_group_required /message_info/from_user_id',
      ]);
    });

    it('accepts an empty from_user_id when group_id is given', () => {
      expect(validate(request({ from_user_id: '', group_id: 'g-1' })).ok).to.equal(true);
      expect(validate(request({ from_user_id: undefined, group_id: 'g-1' })).ok).to.equal(true);
    });
  });

  it('rule 5: answers from_user_type_required for auto_dialog without from_user_type', () => {
    expect(problems(validate(request({ from_user_type: undefined })))).to.deep.equal([
      'from_user_type_required /message_info/from_user_type',
    ]);
  });

  it('rule 6: answers msg_id_required for assist_dialog without a non-empty msg_id', () => {
    expect(problems(validate(assist({ msg_id: undefined })))).to.deep.equal(['msg_id_required /message_info/msg_id']);
    expect(problems(validate(assist({ msg_id: '' })))).to.deep.equal(['msg_id_required /message_info/msg_id']);
  });

  describe('rule 7: at_list', () => {
    it('answers at_list_not_allowed for a non-empty at_list outside auto_dialog', () => {
      expect(problems(validate(website({ at_list: ['bot-1'] })))).to.deep.equal(['at_list_not_allowed /message_info/at_list']);
      expect(problems(validate(assist({ at_list: ['bot-1'] })))).to.deep.equal(['at_list_not_allowed /message_info/at_list']);
    });

    it('tolerates an empty at_list everywhere and a filled one in auto_dialog', () => {
      expect(validate(website({ at_list: [] })).ok).to.equal(true);
      expect(validate(request({ group_id: 'g-1', at_list: ['bot-1'] })).ok).to.equal(true);
    });
  });

  describe('one kind of content in auto_dialog', () => {
    it('answers mixed_content_types for text together with files', () => {
      expect(problems(validate(request({ files_info: files('image') })))).to.deep.equal(['mixed_content_types /message_info/files_info']);
    });

    it('answers mixed_content_types for images together with documents or voice', () => {
      const body = request({ content: undefined, files_info: files('image', 'document') });
      expect(problems(validate(body))).to.deep.equal(['mixed_content_types /message_info/files_info']);
    });

    it('accepts documents with voice, several images, and mixed content outside auto_dialog', () => {
      expect(validate(request({ content: undefined, files_info: files('document', 'voice') })).ok).to.equal(true);
      expect(validate(request({ content: ' ', files_info: files('image', 'image') })).ok).to.equal(true);
      expect(validate(assist({ files_info: files('image', 'voice') })).ok).to.equal(true);
    });
  });

  describe('send_url', () => {
    it('answers send_url_not_supported for website_dialog with a send_url, wherever it is', () => {
      expect(problems(validate(website({}, { send_url: 'https://x.example/' })))).to.deep.equal(['send_url_not_supported /send_url']);
      expect(problems(validate(website({ send_url: 'https://x.example/' })))).to.deep.equal([
        'send_url_not_supported /message_info/send_url',
      ]);
    });

    it('answers invalid_request (code const) when the two send_urls differ', () => {
      const result = validate(request({ send_url: 'https://other.example/' }));
      expect(problems(result)).to.deep.equal(['const /message_info/send_url']);
      expect(errorsOf(result)[0]!.message).to.match(/must be equal/);
      expect(leadingErrorCode(errorsOf(result))).to.equal('invalid_request');
    });

    it('returns whichever send_url is present, and treats a blank one as absent', () => {
      const inner = request({ send_url: 'https://inner.example/' }, { send_url: undefined });
      expect(validate(inner)).to.include({ ok: true, sendUrl: 'https://inner.example/' });
      const same = request({ send_url: 'https://hooks.acme.example/im' });
      expect(validate(same)).to.include({ ok: true, sendUrl: 'https://hooks.acme.example/im' });
      const blank = request({ send_url: '' }, { send_url: '  ' });
      expect(validate(blank)).to.include({ ok: true, sendUrl: undefined });
      expect(validate(website({ send_url: '' })).ok).to.equal(true);
    });
  });

  describe('cmd_dialog', () => {
    it('answers unknown_command listing the known commands', () => {
      const errors = errorsOf(validate(command('stop')));
      expect(errors.map((e) => `${e.code} ${e.path}`)).to.deep.equal(['unknown_command /message_info/content']);
      for (const known of COMMANDS) expect(errors[0]!.message).to.include(known);
    });

    it('compares the trimmed content case-sensitively', () => {
      expect(validate(command('\n stop_auto_reply \t'))).to.include({ ok: true, command: 'stop_auto_reply' });
      expect(problems(validate(command('STOP_AUTO_REPLY')))).to.deep.equal(['unknown_command /message_info/content']);
    });

    it('reports both missing content and the missing command for an empty cmd_dialog', () => {
      expect(problems(validate(command('  ')))).to.deep.equal([
        'content_or_files_required /message_info/content',
        'unknown_command /message_info/content',
      ]);
    });
  });

  describe('several rules at once', () => {
    it('lists every broken rule and leads with the first by precedence', () => {
      const body = request({ content: undefined, message_type: 2, from_user_id: undefined, from_user_type: undefined });
      const errors = errorsOf(validate(body));
      expect(errors.map((e) => `${e.code} ${e.path}`)).to.have.members([
        'content_or_files_required /message_info/content',
        'quote_required /message_info/quote',
        'sender_or_group_required /message_info/from_user_id',
        'from_user_type_required /message_info/from_user_type',
      ]);
      expect(leadingErrorCode(errors)).to.equal('content_or_files_required');
    });

    it('lists rule violations beside schema problems', () => {
      const body = website({ at_list: ['u'], create_timestamp: '1700000000' }, { send_url: 'https://x.example/' });
      expect(problems(validate(body))).to.have.members([
        'type /message_info/create_timestamp',
        'send_url_not_supported /send_url',
        'at_list_not_allowed /message_info/at_list',
      ]);
    });

    it('skips a rule whose members have the wrong type, leaving them to the schema', () => {
      expect(problems(validate(request({ content: 42 })))).to.deep.equal(['type /message_info/content']);
      expect(problems(validate(request({ message_type: 2, quote: 'm-0' })))).to.deep.equal(['type /message_info/quote']);
      expect(problems(validate(request({ from_user_id: 7 })))).to.deep.equal(['type /message_info/from_user_id']);
      expect(problems(validate(request({ event_type: 'foo', at_list: ['u'] })))).to.deep.equal(['enum /message_info/event_type']);
    });
  });
});
