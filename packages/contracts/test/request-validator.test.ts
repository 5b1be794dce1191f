import { expect } from 'chai';
import { COMMANDS, createRequestValidator, leadingErrorCode, type ValidationResult } from '../src/index.js';
import { assist, command, files, problems, request, website } from './fixtures.js';

describe('request validator', () => {
  const validate = createRequestValidator();

  describe('valid requests', () => {
    it('accepts an auto_dialog request and returns its send_url', () => {
      const body = request();
      expect(validate(body)).to.deep.equal({
        ok: true,
        value: body,
        sendUrl: 'https://hooks.acme.example/im',
        command: undefined,
      });
    });

    it('accepts an auto_dialog request without send_url (a client default may apply)', () => {
      expect(validate(request({}, { send_url: undefined }))).to.include({ ok: true, sendUrl: undefined });
    });

    it('accepts an assist_dialog request', () => {
      expect(validate(assist())).to.include({ ok: true, sendUrl: undefined, command: undefined });
    });

    it('accepts a website_dialog request with files and text', () => {
      const body = website({ files_info: files('image'), group_id: 'g-1', from_user_id: '' });
      expect(validate(body)).to.include({ ok: true, sendUrl: undefined, command: undefined });
    });

    it('accepts each known cmd_dialog command', () => {
      for (const known of COMMANDS) {
        expect(validate(command(` ${known}\n`))).to.include({ ok: true, command: known, sendUrl: undefined });
      }
    });

    it('accepts every from_user_type and a quoted auto_dialog message in a group', () => {
      for (const from_user_type of [1, 2, 3, 4]) {
        expect(validate(request({ from_user_type })).ok).to.equal(true);
      }
      const quoted = request({ message_type: 2, quote: { msg_id: 'm-0', message_type: 1 }, group_id: 'g-1', at_list: ['bot-1'] });
      expect(validate(quoted).ok).to.equal(true);
    });
  });

  describe('reuse', () => {
    it('gives the same answers over 1000 calls of valid and invalid bodies', () => {
      const cases: [() => unknown, (r: ValidationResult) => void][] = [
        [() => request(), (r) => expect(r).to.include({ ok: true, sendUrl: 'https://hooks.acme.example/im' })],
        [() => command('auto_reply_status'), (r) => expect(r).to.include({ ok: true, command: 'auto_reply_status' })],
        [
          () => request({ message_type: 2, content: '' }),
          (r) =>
            expect(problems(r)).to.deep.equal(['content_or_files_required /message_info/content', 'quote_required /message_info/quote']),
        ],
        [() => request({}, { timestamp: 'now' }), (r) => expect(problems(r)).to.deep.equal(['type /timestamp'])],
        [() => command('halt'), (r) => expect(problems(r)).to.deep.equal(['unknown_command /message_info/content'])],
        [() => null, (r) => expect(problems(r)).to.deep.equal(['type '])],
      ];
      for (let i = 0; i < 1000; i++) {
        const [body, check] = cases[i % cases.length]!;
        const result = validate(body());
        check(result);
        // A caller mutating one answer must not change the next.
        if (!result.ok) result.errors.push({ path: '/x', code: 'x', message: 'x' });
      }
    });

    it('keeps validators with different limits independent', () => {
      const small = createRequestValidator({ contentMaxChars: 3, filesMax: 1, atListMax: 1, idMaxChars: 8 });
      expect(small(request({ content: 'hello' })).ok).to.equal(false);
      expect(validate(request({ content: 'hello' })).ok).to.equal(true);
      expect(small(request({ content: 'hey', msg_id: 'm', from_user_id: 'c', to_user_id: 'b' }, { client: 'a' })).ok).to.equal(true);
    });
  });
});

describe('leadingErrorCode', () => {
  it('puts a schema problem (invalid_request) before a rule violation', () => {
    expect(
      leadingErrorCode([
        { path: '/message_info/content', code: 'content_or_files_required', message: 'x' },
        { path: '/timestamp', code: 'type', message: 'y' },
      ]),
    ).to.equal('invalid_request');
  });

  it('orders rule violations as the table of docs/service-rules.md §3 does', () => {
    expect(
      leadingErrorCode([
        { path: '/message_info/quote', code: 'quote_required', message: 'x' },
        { path: '/message_info/content', code: 'content_or_files_required', message: 'y' },
      ]),
    ).to.equal('content_or_files_required');
  });
});
