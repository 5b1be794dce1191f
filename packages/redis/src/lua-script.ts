import { createHash } from 'node:crypto';
import type { Redis } from './redis-connection.js';

/**
 * A Lua script with its keys and arguments named (docs/design/lua-scripts.md). Every key the script
 * touches is passed in KEYS, in the declared order, never built inside the script: Redis Cluster
 * refuses undeclared keys. The source opens with a header block naming KEYS, ARGV and the replies.
 */
export interface LuaScript<K extends string = string, A extends string = string> {
  readonly name: string;
  readonly keys: readonly K[];
  readonly args: readonly A[];
  readonly source: string;
  readonly sha: string;
}

export function defineLuaScript<const K extends string, const A extends string>(definition: {
  name: string;
  keys: readonly K[];
  args: readonly A[];
  source: string;
}): LuaScript<K, A> {
  const source = definition.source.trim() + '\n';
  return Object.freeze({ ...definition, source, sha: createHash('sha1').update(source).digest('hex') });
}

/**
 * A whole-number setting as a Lua string literal, for a script that writes its settings into its
 * text (docs/design/lua-scripts.md, "Settings in the text"): text, as a command takes it.
 */
export function luaText(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`a script's setting must be a whole number of at least 0, not ${value}`);
  return `'${value}'`;
}

/**
 * The one runner: keys and arguments by name, in the script's declared order, then `rest` (a
 * variadic tail such as field/value pairs). EVALSHA, and EVAL once when the server lacks the script.
 */
export async function runScript<K extends string, A extends string>(
  redis: Redis,
  script: LuaScript<K, A>,
  keys: Readonly<Record<K, string>>,
  args: Readonly<Record<A, string | number>>,
  rest: readonly (string | number)[] = [],
): Promise<unknown> {
  const keyList = script.keys.map((name) => keys[name]);
  const argList = [...script.args.map((name) => args[name]), ...rest];
  try {
    return await redis.evalsha(script.sha, keyList.length, ...keyList, ...argList);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT'))
      return redis.eval(script.source, keyList.length, ...keyList, ...argList);
    throw error;
  }
}

/** Commands whose first argument is not a key (the only ones a script may call without a KEYS[i] first). */
const KEYLESS_COMMANDS: ReadonlySet<string> = new Set(['TIME', 'PUBLISH', 'ECHO', 'PING']);
/** Commands all of whose arguments are keys. */
const ALL_KEYS_COMMANDS: ReadonlySet<string> = new Set(['DEL', 'UNLINK', 'EXISTS', 'TOUCH', 'MGET']);
const IS_KEY = /^KEYS\[\d+\]$/;

/**
 * What is wrong with a script's conventions (empty: nothing): the header must open the source and
 * name every declared key and argument by its position; no key may be built inside the script
 * (`..` next to a KEYS[i], whether inline or into a local variable); and every key a `redis.call`
 * takes (its first argument, or every argument of DEL, EXISTS …) must be a KEYS[i] itself, not a
 * variable, an ARGV or an expression.
 */
export function scriptConventionProblems(script: LuaScript): string[] {
  const problems: string[] = [];
  const header = /^--\[\[([\s\S]*?)\]\]/.exec(script.source)?.[1];
  if (header === undefined) return [`${script.name}: the source does not open with a --[[ header ]]`];
  script.keys.forEach((name, i) => {
    if (!new RegExp(`KEYS\\[${i + 1}\\]\\s+${name}\\b`).test(header))
      problems.push(`${script.name}: header does not name KEYS[${i + 1}] ${name}`);
  });
  script.args.forEach((name, i) => {
    if (!new RegExp(`ARGV\\[${i + 1}\\]\\s+${name}\\b`).test(header))
      problems.push(`${script.name}: header does not name ARGV[${i + 1}] ${name}`);
  });
  if (!/Output:/.test(header)) problems.push(`${script.name}: header does not describe the Output`);
  const body = script.source.slice(script.source.indexOf(']]') + 2);
  // A composed part may read keys it learns inside when its header names them and why (docs/design/lua-scripts.md).
  const derivedAllowed = /Derived keys/.test(header);
  const built =
    /KEYS\[\d+\]\s*\.\./.test(body) || /\.\.\s*KEYS\[\d+\]/.test(body) || /redis\.p?call\(\s*'[A-Za-z]+'\s*,\s*[^,)]*\.\./.test(body);
  if (built) problems.push(`${script.name}: a key is built inside the script`);
  for (const call of body.matchAll(/redis\.p?call\(\s*'([A-Za-z]+)'/g)) {
    const command = call[1]!.toUpperCase();
    if (KEYLESS_COMMANDS.has(command)) continue;
    const args = callArguments(body, call.index + call[0].length);
    const keyArgs = ALL_KEYS_COMMANDS.has(command) ? args : args.slice(0, 1);
    for (const arg of keyArgs) {
      if (IS_KEY.test(arg) || (built && arg.includes('..')) || (derivedAllowed && /^derived[A-Za-z]*$/.test(arg))) continue;
      problems.push(`${script.name}: redis.call('${command}', ${arg}) takes a key not passed in KEYS`);
    }
    for (const arg of args.slice(1)) {
      if (isNumberExpression(arg)) problems.push(`${script.name}: redis.call('${command}', …, ${arg}) passes a number: pass text`);
    }
  }
  const usedKeys = [...body.matchAll(/KEYS\[(\d+)\]/g)].map((m) => Number(m[1]));
  if (usedKeys.some((k) => k > script.keys.length)) problems.push(`${script.name}: uses a KEYS index it does not declare`);
  return problems;
}

/**
 * An argument that is a Lua number as written: a literal, a length (`#t`), a `tonumber(…)`, or
 * arithmetic outside any parentheses. Redis 7.0 turns a number argument into text with
 * snprintf("%.17g"), a few thousand instructions each (docs/design/lua-scripts.md, "Text, not
 * numbers"); text (an ARGV, a quoted literal, `string.format('%d', …)`) is taken as it is. A
 * variable holding a number cannot be seen here.
 */
function isNumberExpression(arg: string): boolean {
  if (/^-?\d+(\.\d+)?$/.test(arg) || arg.startsWith('#') || arg.startsWith('tonumber(')) return true;
  let depth = 0;
  let quote = '';
  for (let i = 0; i < arg.length; i++) {
    const char = arg[i];
    if (quote !== '') {
      if (char === '\\') i += 1;
      else if (char === quote) quote = '';
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '(' || char === '{' || char === '[') depth += 1;
    else if (char === ')' || char === '}' || char === ']') depth -= 1;
    else if (depth === 0 && (char === '+' || char === '*' || char === '/' || (char === '-' && arg[i + 1] !== '-'))) return true;
  }
  return false;
}

/** The top-level arguments of a call whose command name ends at `from` (up to its closing parenthesis), trimmed. */
function callArguments(source: string, from: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of source.slice(from)) {
    if (char === '(' || char === '{') depth += 1;
    if (char === ')' || char === '}') {
      if (depth === 0) break;
      depth -= 1;
    }
    if (char === ',' && depth === 0) {
      if (current.trim() !== '') args.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') args.push(current.trim());
  return args;
}
