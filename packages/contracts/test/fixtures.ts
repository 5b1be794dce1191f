import { expect } from 'chai';
import type { FieldError } from '../src/index.js';
import type { ValidationResult } from '../src/index.js';

type Members = Record<string, unknown>;

/** Removes members set to undefined, as JSON.stringify would: `{ content: undefined }` means "no content". */
function compact(members: Members): Members {
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined));
}

/** A valid auto_dialog request from a customer; `info` and `top` override or (with undefined) remove members. */
export function request(info: Members = {}, top: Members = {}): Members {
  return compact({
    client: 'acme',
    signature: 'a'.repeat(64),
    timestamp: 1_700_000_000,
    send_url: 'https://hooks.acme.example/im',
    message_info: compact({
      msg_id: 'm-1',
      from_user_id: 'customer-1',
      to_user_id: 'bot-1',
      message_type: 1,
      event_type: 'auto_dialog',
      from_user_type: 2,
      create_timestamp: 1_700_000_000,
      content: 'hello',
      ...info,
    }),
    ...top,
  });
}

export const assist = (info: Members = {}, top: Members = {}): Members =>
  request({ event_type: 'assist_dialog', from_user_type: undefined, ...info }, { send_url: undefined, ...top });

export const website = (info: Members = {}, top: Members = {}): Members =>
  request({ event_type: 'website_dialog', from_user_type: undefined, ...info }, { send_url: undefined, ...top });

export const command = (content: unknown, info: Members = {}): Members =>
  request({ event_type: 'cmd_dialog', from_user_type: undefined, content, ...info }, { send_url: undefined });

export const files = (...types: string[]): Members[] =>
  types.map((file_type, i) => ({ content: `https://files.acme.example/${i}`, file_type }));

/** The errors of a failed validation (fails the test when validation passed). */
export function errorsOf(result: ValidationResult): FieldError[] {
  if (result.ok) expect.fail('expected validation to fail, but it passed');
  return result.errors;
}

/** The errors as "code path" strings, for exact comparisons that ignore the human messages. */
export function problems(result: ValidationResult): string[] {
  return errorsOf(result).map((e) => `${e.code} ${e.path}`);
}
