import { Ajv, type ErrorObject } from 'ajv';
import type { FieldError } from './app-error.js';
import { checkBodyShape } from './body-shape.js';
import type { Command } from './commands.js';
import { DEFAULT_LIMITS, UNICODE_TEXT_PATTERN, buildRequestSchema, type ValidationLimits } from './message.schema.js';
import type { ChatMessageRequest } from './message.types.js';
import { applyRequestRules } from './request-rules.js';

export type ValidationResult =
  { ok: true; value: ChatMessageRequest; sendUrl: string | undefined; command: Command | undefined } | { ok: false; errors: FieldError[] };

/**
 * `shapeChecked`: the caller has already held the raw bytes to the body-shape limits
 * (checkRawBodyShape, before JSON.parse), so the parsed body is not walked a second time.
 */
export type RequestValidator = (body: unknown, options?: { shapeChecked?: boolean }) => ValidationResult;

/**
 * Compiles the request schema once and returns a validator to reuse for every request. It reports
 * every problem: schema problems (FieldError.code is the JSON-schema keyword; the request error is
 * invalid_request) and rule violations (code is the rule's ErrorCode); pick the envelope's `error`
 * with leadingErrorCode. Nothing is coerced or copied: on success `value` is the body itself,
 * unknown members included (callers must not echo or log them).
 */
export function createRequestValidator(limits: ValidationLimits = DEFAULT_LIMITS): RequestValidator {
  checkLimits(limits);
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    strict: true,
    verbose: true,
  });
  const validateSchema = ajv.compile(buildRequestSchema(limits));

  return (body: unknown, options): ValidationResult => {
    // Bounded work first (docs/service-rules.md §16): a huge or deep body, or an over-long array, is refused
    // with one error before the schema looks at every item.
    const tooLong = overlongArrays(body, limits);
    if (tooLong.length > 0) return { ok: false, errors: tooLong };
    const shape = options?.shapeChecked === true ? undefined : checkBodyShape(body);
    if (shape) return { ok: false, errors: [shape] };
    // validateSchema.errors is overwritten by the next call: read it at once, before anything else runs.
    const schemaOk = validateSchema(body);
    const errors = schemaOk ? [] : toFieldErrors(validateSchema.errors ?? []);
    const rules = applyRequestRules(body);
    errors.push(...rules.errors);
    if (!schemaOk || errors.length > 0) return { ok: false, errors };
    return { ok: true, value: body as ChatMessageRequest, sendUrl: rules.sendUrl, command: rules.command };
  };
}

/** The limited arrays of message_info whose length is over the limit, as the schema would word it. */
function overlongArrays(body: unknown, limits: ValidationLimits): FieldError[] {
  const info = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['message_info'] : undefined;
  if (typeof info !== 'object' || info === null) return [];
  const errors: FieldError[] = [];
  for (const [member, limit] of [
    ['at_list', limits.atListMax],
    ['files_info', limits.filesMax],
  ] as const) {
    const value = (info as Record<string, unknown>)[member];
    if (Array.isArray(value) && value.length > limit) {
      errors.push({
        path: `/message_info/${member}`,
        code: 'maxItems',
        message: `message_info.${member} must have at most ${limit} items.`,
      });
    }
  }
  return errors;
}

function checkLimits(limits: ValidationLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      throw new Error(`Validation limit ${name} must be a non-negative integer, got ${String(value)}`);
    }
  }
}

/** AJV errors as FieldErrors; an enum error is dropped where the same member already has a type error. */
function toFieldErrors(ajvErrors: readonly ErrorObject[]): FieldError[] {
  const typeErrorAt = new Set(ajvErrors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  return ajvErrors.filter((e) => !(e.keyword === 'enum' && typeErrorAt.has(e.instancePath))).map(toFieldError);
}

function toFieldError(error: ErrorObject): FieldError {
  if (error.keyword === 'required') {
    const missing = String(error.params['missingProperty']);
    const path = `${error.instancePath}/${escapePointer(missing)}`;
    return { path, code: 'required', message: `${fieldName(path)} is required.` };
  }
  const path = error.instancePath;
  return { path, code: error.keyword, message: describe(error, fieldName(path)) };
}

function describe(error: ErrorObject, field: string): string {
  const p = error.params;
  switch (error.keyword) {
    case 'type':
      if (error.instancePath === '') return 'The request body must be a JSON object.';
      return `${field} must be ${article(String(p['type']))}, not ${jsonType(error.data)}.`;
    case 'enum':
      return `${field} must be one of: ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'maxLength':
      return `${field} must be at most ${String(p['limit'])} characters long.`;
    case 'minLength':
      return p['limit'] === 1 ? `${field} must not be empty.` : `${field} must be at least ${String(p['limit'])} characters long.`;
    case 'maxItems':
      return `${field} must have at most ${String(p['limit'])} items.`;
    case 'minimum':
      return `${field} must be ${String(p['comparison'])} ${String(p['limit'])}.`;
    case 'pattern':
      if (p['pattern'] === UNICODE_TEXT_PATTERN) return `${field} must be Unicode text: it holds a lone surrogate (such as \\ud800).`;
      return `${field} must match the pattern ${String(p['pattern'])}.`;
    default:
      return `${field} ${error.message ?? 'is invalid'}.`;
  }
}

/** A JSON Pointer as integrators read it: "/message_info/files_info/0/content" → "message_info.files_info[0].content". */
function fieldName(pointer: string): string {
  if (pointer === '') return 'The request body';
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, seg) => (/^\d+$/.test(seg) ? `${name}[${seg}]` : name === '' ? seg : `${name}.${seg}`), '');
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a fractional number';
  return article(typeof value);
}
