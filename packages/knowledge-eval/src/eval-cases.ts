/** One evaluation message: the text a customer sends and the entry that should answer it. */
export interface EvalCase {
  text: string;
  /** The id of the entry that should answer; undefined: out of scope, the fallback should answer. */
  expected: string | undefined;
  /** Every id that counts as right (`expected` first; more when the case lists several). */
  accepted: string[];
  /** The message's language as written in the case (en, zh, ja …); else detected. */
  language: string | undefined;
  /** 1-based line in the cases file. */
  line: number;
}

const TEXT_KEYS = ['text', 'message', 'query', 'content'];
const EXPECTED_KEYS = ['expected', 'expect', 'entry', 'id', 'intent', 'answer_id'];
const LANGUAGE_KEYS = ['lang', 'language'];
/** Values of `expected` that mean "out of scope: the fallback should answer". */
const OUT_OF_SCOPE = new Set(['', 'fallback', 'none', 'oos', 'out_of_scope', 'out-of-scope']);

function firstString(record: Record<string, unknown>, keys: readonly string[]): { key: string; value: unknown } | undefined {
  for (const key of keys) if (key in record) return { key, value: record[key] };
  return undefined;
}

function readCase(parsed: unknown, line: number): EvalCase {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`cases line ${line}: must be a JSON object`);
  const record = parsed as Record<string, unknown>;
  const textField = firstString(record, TEXT_KEYS);
  if (!textField || typeof textField.value !== 'string' || textField.value.trim() === '') {
    throw new Error(`cases line ${line}: needs a non-empty "text"`);
  }
  const expectedField = firstString(record, EXPECTED_KEYS);
  const expectedValue = expectedField?.value ?? null;
  const values = Array.isArray(expectedValue) ? (expectedValue as unknown[]) : [expectedValue];
  if (values.some((value) => value !== null && typeof value !== 'string')) {
    throw new Error(`cases line ${line}: "${expectedField?.key ?? 'expected'}" must be an entry id, a list of ids, or null`);
  }
  const accepted = (values as (string | null)[])
    .filter((value): value is string => value !== null && !OUT_OF_SCOPE.has(value.trim().toLowerCase()))
    .map((value) => value.trim());
  const languageField = firstString(record, LANGUAGE_KEYS);
  const language = typeof languageField?.value === 'string' && languageField.value !== '' ? languageField.value.toLowerCase() : undefined;
  return { text: textField.value, expected: accepted[0], accepted, language, line };
}

/**
 * Reads cases: JSON Lines, one object a line, {"text": "…", "expected": "entry-id" or null,
 * "lang": "en"} (or a JSON array of such objects). Also accepted: message/query for text,
 * entry/id/intent for expected, language for lang; a list of ids when several entries are right;
 * null, "", "fallback" or "none" as expected mean out of scope. Blank lines and lines starting with
 * # or // are skipped. Throws naming the line (or array index + 1) of the first bad case.
 */
export function parseEvalCases(text: string): EvalCase[] {
  let cases: EvalCase[] = [];
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`cases: not a JSON array (${(error as Error).message})`);
    }
    cases = (parsed as unknown[]).map((item, i) => readCase(item, i + 1));
  } else {
    text.split(/\r?\n/).forEach((raw, i) => {
      const trimmed = raw.trim();
      if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('//')) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(trimmed);
      } catch (error) {
        throw new Error(`cases line ${i + 1}: not JSON (${(error as Error).message})`);
      }
      cases.push(readCase(parsed, i + 1));
    });
  }
  if (cases.length === 0) throw new Error('the cases file has no cases');
  return cases;
}
