import type { FieldError } from './app-error.js';
import { COMMANDS, isCommand, type Command } from './commands.js';
import { EVENT_TYPES, FILE_TYPES, type EventType, type FileType } from './message.types.js';

/** What the cross-field rules found, plus the two values they derive from the request. */
export interface RuleOutcome {
  errors: FieldError[];
  /** The non-blank send_url, top-level or in message_info (when both are given and differ: the top-level one). */
  sendUrl: string | undefined;
  /** The trimmed command of a cmd_dialog request, when it is a known one. */
  command: Command | undefined;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string with at least one non-whitespace character. "Empty" in the rules means: absent, "" or whitespace only. */
export function hasText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The value is absent or a string: a rule reading it may run (a wrong type is the schema's to report). */
function absentOrString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

const MI = '/message_info';

/**
 * The rules of docs/service-rules.md §3 beyond the schema: the 400 codes of its table other than
 * invalid_request (content, quote, sender, scenario, mixed content, send_url, commands).
 * They run even when the schema found problems, so a rule applies only when the members it reads
 * have the right type; a wrongly typed member is reported by the schema alone.
 * send_url_required and send_url_forbidden depend on the client and on DNS and are checked elsewhere.
 */
export function applyRequestRules(body: unknown): RuleOutcome {
  const errors: FieldError[] = [];
  if (!isRecord(body)) return { errors, sendUrl: undefined, command: undefined };
  const info = isRecord(body['message_info']) ? body['message_info'] : undefined;
  const sendUrl = checkSendUrl(body, info, errors);
  if (info === undefined) return { errors, sendUrl, command: undefined };

  const eventType = isOneOf<EventType>(EVENT_TYPES, info['event_type']) ? info['event_type'] : undefined;
  checkContentOrFiles(info, errors);
  checkQuote(info, errors);
  checkSenderOrGroup(info, errors);
  checkScenario(info, eventType, errors);
  const command = eventType === 'cmd_dialog' ? checkCommand(info, errors) : undefined;
  return { errors, sendUrl, command };
}

/** docs/service-rules.md §4: send_url at the top level or in message_info, equal when both; never in website_dialog. */
function checkSendUrl(body: Json, info: Json | undefined, errors: FieldError[]): string | undefined {
  // A blank send_url ("" or spaces) counts as absent: clients often send every member, empty when unused.
  const top = hasText(body['send_url']) ? body['send_url'] : undefined;
  const inner = info !== undefined && hasText(info['send_url']) ? info['send_url'] : undefined;
  if (top !== undefined && inner !== undefined && top !== inner) {
    errors.push({
      path: `${MI}/send_url`,
      code: 'const',
      message: 'send_url is given both at the top level and in message_info with different values; they must be equal (or give only one).',
    });
  }
  if (info?.['event_type'] === 'website_dialog') {
    const message = 'website_dialog answers in the response and does not support send_url; remove it.';
    if (top !== undefined) errors.push({ path: '/send_url', code: 'send_url_not_supported', message });
    if (inner !== undefined) errors.push({ path: `${MI}/send_url`, code: 'send_url_not_supported', message });
  }
  return top ?? inner;
}

/** docs/service-rules.md §3 `content_or_files_required`: a non-blank content or a non-empty files_info. */
function checkContentOrFiles(info: Json, errors: FieldError[]): void {
  const content = info['content'];
  const files = info['files_info'];
  if (!absentOrString(content) || !(files === undefined || Array.isArray(files))) return;
  if (hasText(content) || (files !== undefined && files.length > 0)) return;
  errors.push({
    path: `${MI}/content`,
    code: 'content_or_files_required',
    message: 'message_info needs a non-empty content (whitespace only counts as empty) or a non-empty files_info.',
  });
}

/** docs/service-rules.md §3 `quote_required`: message_type 2 (quoted message) needs quote with a non-empty msg_id and a message_type. */
function checkQuote(info: Json, errors: FieldError[]): void {
  if (info['message_type'] !== 2) return;
  const quote = info['quote'];
  if (quote === undefined) {
    errors.push({
      path: `${MI}/quote`,
      code: 'quote_required',
      message: 'message_type 2 (quoted message) needs a quote object with msg_id and message_type.',
    });
    return;
  }
  if (!isRecord(quote)) return;
  if (absentOrString(quote['msg_id']) && !hasText(quote['msg_id'])) {
    errors.push({
      path: `${MI}/quote/msg_id`,
      code: 'quote_required',
      message: 'message_type 2 (quoted message) needs quote.msg_id, the id of the quoted message.',
    });
  }
  if (quote['message_type'] === undefined) {
    errors.push({
      path: `${MI}/quote/message_type`,
      code: 'quote_required',
      message: 'message_type 2 (quoted message) needs quote.message_type (1 or 2).',
    });
  }
}

/** docs/service-rules.md §3 `sender_or_group_required`: from_user_id and group_id not both empty. */
function checkSenderOrGroup(info: Json, errors: FieldError[]): void {
  const from = info['from_user_id'];
  const group = info['group_id'];
  if (!absentOrString(from) || !absentOrString(group)) return;
  if (hasText(from) || hasText(group)) return;
  errors.push({
    path: `${MI}/from_user_id`,
    code: 'sender_or_group_required',
    message: 'from_user_id and group_id are both empty; give the sender (from_user_id) or, in a group, group_id.',
  });
}

/**
 * What each event_type requires or refuses (docs/service-rules.md §3 `from_user_type_required`,
 * `msg_id_required`, `at_list_not_allowed`, `mixed_content_types`).
 */
function checkScenario(info: Json, eventType: EventType | undefined, errors: FieldError[]): void {
  if (eventType === undefined) return;
  if (eventType === 'auto_dialog' && info['from_user_type'] === undefined) {
    errors.push({
      path: `${MI}/from_user_type`,
      code: 'from_user_type_required',
      message: 'auto_dialog needs from_user_type (1 bound account, 2 customer, 3 staff, 4 the bot itself).',
    });
  }
  if (eventType === 'assist_dialog' && absentOrString(info['msg_id']) && !hasText(info['msg_id'])) {
    errors.push({
      path: `${MI}/msg_id`,
      code: 'msg_id_required',
      message: 'assist_dialog needs a non-empty msg_id.',
    });
  }
  // An empty at_list ([]) is tolerated in every scenario: it mentions nobody, and clients that always
  // send every member would otherwise be refused for a member that carries no information.
  const atList = info['at_list'];
  if (eventType !== 'auto_dialog' && Array.isArray(atList) && atList.length > 0) {
    errors.push({
      path: `${MI}/at_list`,
      code: 'at_list_not_allowed',
      message: `at_list is supported only in auto_dialog, not in ${eventType}.`,
    });
  }
  if (eventType === 'auto_dialog') checkOneKindOfContent(info, errors);
}

/** auto_dialog carries one kind of content: text, image, or file (document and voice both count as file). */
function checkOneKindOfContent(info: Json, errors: FieldError[]): void {
  const files = info['files_info'];
  if (!Array.isArray(files) || files.length === 0) return;
  const kinds = new Set<'image' | 'file'>();
  for (const item of files as unknown[]) {
    if (!isRecord(item) || !isOneOf<FileType>(FILE_TYPES, item['file_type'])) continue;
    kinds.add(item['file_type'] === 'image' ? 'image' : 'file');
  }
  const withText = hasText(info['content']);
  if (!withText && kinds.size < 2) return;
  errors.push({
    path: `${MI}/files_info`,
    code: 'mixed_content_types',
    message: withText
      ? 'auto_dialog carries one kind of content per request: send the text and the files in separate requests.'
      : 'auto_dialog carries one kind of content per request: send images and documents/voice in separate requests.',
  });
}

/** docs/service-rules.md §8: the trimmed content of a cmd_dialog must be a known command. */
function checkCommand(info: Json, errors: FieldError[]): Command | undefined {
  const content = info['content'];
  if (!absentOrString(content)) return undefined;
  const command = (content ?? '').trim();
  if (isCommand(command)) return command;
  errors.push({
    path: `${MI}/content`,
    code: 'unknown_command',
    message: `cmd_dialog content is not a known command; known commands: ${COMMANDS.join(', ')}.`,
  });
  return undefined;
}
