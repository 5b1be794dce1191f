import { expect } from 'chai';
import { DEFAULT_LIMITS, createRequestValidator, leadingErrorCode } from '../src/index.js';
import { errorsOf, files, problems, request } from './fixtures.js';

describe('request schema', () => {
  const validate = createRequestValidator();

  describe('types and values', () => {
    it('answers invalid_request (type) for a timestamp sent as a string', () => {
      const result = validate(request({}, { timestamp: '1700000000' }));
      expect(problems(result)).to.deep.equal(['type /timestamp']);
      expect(errorsOf(result)[0]!.message).to.equal('timestamp must be an integer, not a string.');
      expect(leadingErrorCode(errorsOf(result))).to.equal('invalid_request');
    });

    it('answers enum for message_type 3, event_type "foo" and file_type "video"', () => {
      expect(problems(validate(request({ message_type: 3 })))).to.deep.equal(['enum /message_info/message_type']);
      expect(problems(validate(request({ event_type: 'foo' })))).to.deep.equal(['enum /message_info/event_type']);
      const video = request({ content: undefined, files_info: files('video') });
      expect(problems(validate(video))).to.deep.equal(['enum /message_info/files_info/0/file_type']);
    });

    it('reports a wrongly typed enum member once, as a type error', () => {
      expect(problems(validate(request({ message_type: '1' })))).to.deep.equal(['type /message_info/message_type']);
      expect(problems(validate(request({ from_user_type: 2.5 })))).to.deep.equal(['type /message_info/from_user_type']);
    });

    it('points a required error at the missing member', () => {
      expect(problems(validate(request({}, { client: undefined })))).to.deep.equal(['required /client']);
      const noFileContent = request({ content: undefined, files_info: [{ file_type: 'image' }] });
      const result = validate(noFileContent);
      expect(problems(result)).to.deep.equal(['required /message_info/files_info/0/content']);
      expect(errorsOf(result)[0]!.message).to.equal('message_info.files_info[0].content is required.');
    });

    it('lists every missing top-level member', () => {
      expect(problems(validate({}))).to.deep.equal([
        'required /client',
        'required /signature',
        'required /timestamp',
        'required /message_info',
      ]);
    });

    it('requires message_type, event_type and create_timestamp but not from_user_id', () => {
      const body = request({ message_type: undefined, event_type: undefined, create_timestamp: undefined });
      expect(problems(validate(body))).to.deep.equal([
        'required /message_info/message_type',
        'required /message_info/event_type',
        'required /message_info/create_timestamp',
      ]);
    });

    it('refuses empty client and signature, negative and fractional timestamps', () => {
      expect(problems(validate(request({ create_timestamp: -1 }, { client: '', signature: '', timestamp: 1.5 })))).to.deep.equal([
        'minLength /client',
        'minLength /signature',
        'type /timestamp',
        'minimum /message_info/create_timestamp',
      ]);
    });

    it('answers invalid_request for a body that is not an object', () => {
      for (const body of [[], null, 'hello', 42, true, undefined]) {
        const result = validate(body);
        expect(problems(result)).to.deep.equal(['type ']);
        expect(errorsOf(result)[0]!.message).to.equal('The request body must be a JSON object.');
        expect(leadingErrorCode(errorsOf(result))).to.equal('invalid_request');
      }
    });

    it('answers type for a message_info that is not an object', () => {
      expect(problems(validate(request({}, { message_info: [] })))).to.deep.equal(['type /message_info']);
    });

    it('refuses a client id or message id holding a lone surrogate (not Unicode text), naming each', () => {
      const body = request(
        {
          msg_id: 'm\ud800',
          from_user_id: 'u\udc00',
          group_id: '\ud83d',
          at_list: ['bot-1', 'x\udfff'],
          message_type: 2,
          quote: { msg_id: 'q\ud800', message_type: 1 },
        },
        { client: 'acme\ud800' },
      );
      const result = validate(body);
      expect(problems(result)).to.deep.equal([
        'pattern /client',
        'pattern /message_info/msg_id',
        'pattern /message_info/group_id',
        'pattern /message_info/from_user_id',
        'pattern /message_info/at_list/1',
        'pattern /message_info/quote/msg_id',
      ]);
      expect(errorsOf(result)[1]!.message).to.equal(
        'message_info.msg_id must be Unicode text: it holds a lone surrogate (such as \\ud800).',
      );
      expect(leadingErrorCode(errorsOf(result))).to.equal('invalid_request');
    });

    it('accepts ids with characters outside the Basic Multilingual Plane (surrogate pairs) and a lone surrogate in content', () => {
      expect(validate(request({ msg_id: 'm-😀', from_user_id: '𝓤', at_list: ['𝓤'] }, { client: 'acme-😀' })).ok).to.equal(true);
      expect(validate(request({ content: 'cut emoji \ud83d' })).ok).to.equal(true);
    });
  });

  describe('limits', () => {
    it('refuses content of 10001 characters', () => {
      const result = validate(request({ content: 'a'.repeat(10_001) }));
      expect(problems(result)).to.deep.equal(['maxLength /message_info/content']);
      expect(errorsOf(result)[0]!.message).to.equal('message_info.content must be at most 10000 characters long.');
    });

    it('accepts 10000 characters counted as code points, Chinese and emoji alike', () => {
      expect(validate(request({ content: '中'.repeat(10_000) })).ok).to.equal(true);
      expect(validate(request({ content: '😀'.repeat(10_000) })).ok).to.equal(true);
    });

    it('refuses 11 files and accepts 10', () => {
      const eleven = request({ content: undefined, files_info: files(...Array<string>(11).fill('image')) });
      expect(problems(validate(eleven))).to.deep.equal(['maxItems /message_info/files_info']);
      const ten = request({ content: undefined, files_info: files(...Array<string>(10).fill('image')) });
      expect(validate(ten).ok).to.equal(true);
    });

    it('refuses an at_list over 100 ids and ids over 256 characters', () => {
      const atList = Array.from({ length: 101 }, (_, i) => `u${i}`);
      expect(problems(validate(request({ at_list: atList })))).to.deep.equal(['maxItems /message_info/at_list']);
      const long = 'x'.repeat(257);
      expect(problems(validate(request({ msg_id: long, at_list: [long] }, { client: long })))).to.deep.equal([
        'maxLength /client',
        'maxLength /message_info/msg_id',
        'maxLength /message_info/at_list/0',
      ]);
    });

    it('applies the limits it is created with', () => {
      const strict = createRequestValidator({ ...DEFAULT_LIMITS, contentMaxChars: 5, filesMax: 1 });
      expect(strict(request({ content: 'hello' })).ok).to.equal(true);
      expect(problems(strict(request({ content: 'hello!' })))).to.deep.equal(['maxLength /message_info/content']);
      const two = request({ content: undefined, files_info: files('voice', 'voice') });
      expect(problems(strict(two))).to.deep.equal(['maxItems /message_info/files_info']);
    });

    it('refuses nonsensical limits at creation', () => {
      expect(() => createRequestValidator({ ...DEFAULT_LIMITS, filesMax: -1 })).to.throw(/filesMax/);
      expect(() => createRequestValidator({ ...DEFAULT_LIMITS, contentMaxChars: 1.5 })).to.throw(/contentMaxChars/);
    });
  });

  describe('unknown members', () => {
    it('tolerates unknown members at every level and returns the body itself', () => {
      const body = request({ version: '2.1', quote: { msg_id: 'm-0', message_type: 1, extra: true } }, { secret: 's3cr3t' });
      const info = body['message_info'] as Record<string, unknown>;
      info['files_info'] = [{ content: 'https://f.example/a.png', file_type: 'image', name: 'a.png' }];
      delete info['content'];
      const result = validate(body);
      expect(result.ok).to.equal(true);
      if (result.ok) expect(result.value).to.equal(body);
    });

    it('neither coerces nor fills in members of the body', () => {
      const body = request({ message_type: '1', from_user_type: undefined }, { timestamp: '1700000000' });
      const before = structuredClone(body);
      validate(body);
      expect(body).to.deep.equal(before);
    });
  });
});
