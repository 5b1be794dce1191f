import { defineLuaScript, luaText, type LuaScript } from './lua-script.js';
import type { Redis } from './redis-connection.js';

/**
 * Steps of a request that may share one script (docs/design/lua-scripts.md "Composed scripts"). A part is
 * a Lua body with named keys and arguments, written against placeholders (`k.pending` is `KEYS[3]`
 * once composed); the package that owns the data defines its parts, and the caller that runs several
 * of them in one round trip composes them. On one Redis or behind Sentinel the parts run as one
 * script; on a cluster the parts of one slot run as one script and the slots one after the other,
 * because a script may touch one slot only.
 *
 * Parts run in order and see a table `shared` the earlier parts may have filled (a part that must
 * tell a later one something writes it there, never to a key). A part listed in `haltOn` ends the
 * script when its result, or its result's first element, is one of them: the later parts do not run.
 */
export interface LuaPart<K extends string = string, A extends string = string> {
  readonly name: string;
  /** One line for the composed script's header. */
  readonly does: string;
  readonly keys: readonly K[];
  readonly args: readonly A[];
  /** What the part returns (for the header). */
  readonly output: string;
  /** The hash tag its keys carry: parts of one slot may share a script on a cluster. */
  readonly slot: 'client' | 'conversation';
  readonly haltOn?: readonly string[];
  /** Keys the part reads that it learns inside (named in the header; same slot as its declared keys). */
  readonly derivedKeys?: string;
  /** Arguments written into its text (withSettings), named in the header with their values. */
  readonly settings?: Readonly<Record<string, number | string>>;
  readonly lua: (k: Readonly<Record<K, string>>, a: Readonly<Record<A, string>>) => string;
}

export function defineLuaPart<const K extends string, const A extends string>(part: LuaPart<K, A>): LuaPart<K, A> {
  return Object.freeze(part);
}

/** A setting as a Lua string literal: a whole number (luaText), or a word of letters, digits and `_-=,*` (a mode, outcome words). */
function settingText(name: string, value: number | string): string {
  if (typeof value === 'number') return luaText(value);
  if (!/^[\w=,*-]*$/.test(value)) throw new Error(`a script's setting ${name} must be a word, not ${JSON.stringify(value)}`);
  return `'${value}'`;
}

/**
 * The part with some of its arguments written into its text as settings (docs/design/lua-scripts.md
 * "Settings in the text"): what a store passes alike on every call. Its calls pass only the other
 * arguments: each costs Redis its conversion to a Lua string. Make it once, when the store is made
 * (or once per value, keptPerKey): a plan is found by its parts, so a part made per call would
 * compose a script per call.
 */
export function withSettings<K extends string, A extends string, const S extends A>(
  part: LuaPart<K, A>,
  settings: Readonly<Record<S, number | string>>,
): LuaPart<K, Exclude<A, S>> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries<number | string>(settings)) {
    if (!(part.args as readonly string[]).includes(name)) throw new Error(`${part.name} has no argument ${name}`);
    texts[name] = settingText(name, value);
  }
  return Object.freeze({
    ...part,
    args: part.args.filter((name): name is Exclude<A, S> => !(name in texts)),
    settings: { ...part.settings, ...settings },
    lua: (k: Readonly<Record<K, string>>, a: Readonly<Record<Exclude<A, S>, string>>) =>
      part.lua(k, { ...a, ...texts } as Record<A, string>),
  });
}

type AnyPart = LuaPart<string, string>;

/** One part in a step: the part, and the keys and arguments of this call. */
export interface StepCall {
  readonly part: AnyPart;
  readonly keys: Readonly<Record<string, string>>;
  readonly args: Readonly<Record<string, string | number>>;
}

/** A part with the values it runs with (the keys and arguments are checked against the part when composed). */
export function stepCall<K extends string, A extends string>(
  part: LuaPart<K, A>,
  keys: Readonly<Record<K, string>>,
  args: Readonly<Record<A, string | number>>,
): StepCall {
  return { part, keys, args };
}

interface Composed {
  readonly script: LuaScript;
  /** For each part, where its key and argument names landed. */
  readonly parts: readonly AnyPart[];
  readonly keyNames: readonly { part: number; name: string }[];
  readonly argNames: readonly { part: number; name: string }[];
}

/** `shared` in: the first argument of a script that continues a composed one on a cluster. */
const SHARED_ARG = 'shared';

/**
 * Composes parts into one script. Each part's keys and arguments get their own positions (two parts
 * naming the same key get two; the values passed decide what they are). `continued` (a cluster's
 * script for one slot): the script takes `shared` as JSON in ARGV[1] and returns it encoded after
 * the parts' results, then 1 when a part halted.
 */
export function composeParts(name: string, parts: readonly AnyPart[], continued = false): Composed {
  const keyNames: { part: number; name: string }[] = [];
  const argNames: { part: number; name: string }[] = continued ? [{ part: -1, name: SHARED_ARG }] : [];
  const bodies: string[] = [];
  const headerKeys: string[] = [];
  const headerArgs: string[] = continued ? [`ARGV[1] ${SHARED_ARG}  what the earlier slots' parts left in \`shared\` (JSON)`] : [];
  parts.forEach((part, index) => {
    const k: Record<string, string> = {};
    for (const key of part.keys) {
      keyNames.push({ part: index, name: key });
      k[key] = `KEYS[${keyNames.length}]`;
      headerKeys.push(`KEYS[${keyNames.length}] ${partKey(index, key)}  (${part.name})`);
    }
    const a: Record<string, string> = {};
    for (const arg of part.args) {
      argNames.push({ part: index, name: arg });
      a[arg] = `ARGV[${argNames.length}]`;
      headerArgs.push(`ARGV[${argNames.length}] ${partKey(index, arg)}  (${part.name})`);
    }
    const halt =
      part.haltOn && part.haltOn.length > 0
        ? `\nh = r\nif type(r) == 'table' then h = r[1] end\nif ${part.haltOn.map((h) => `h == '${h}'`).join(' or ')} then return finish(true) end`
        : '';
    bodies.push(`r = (function()\n${part.lua(k, a).trim()}\nend)()\nout[${index + 1}] = r or false${halt}`);
  });
  const header = [
    `--[[ ${name}: ${parts.map((p) => p.does).join('; ')}.`,
    `  Input:  ${[...headerKeys, ...headerArgs].join('\n          ')}`,
    ...parts.filter((p) => p.derivedKeys).map((p) => `  Derived keys (${p.name}): ${p.derivedKeys ?? ''}`),
    ...parts
      .filter((p) => p.settings)
      .map(
        (p) =>
          `  Settings (${p.name}, in this text): ${Object.entries(p.settings ?? {})
            .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
            .join(', ')}`,
      ),
    `  Output: {${parts.map((p) => `${p.name}: ${p.output}`).join(', ')}${continued ? ', shared (JSON), 1 when a part halted' : ''}}`,
    `          (a part that did not run: nil) ]]`,
  ].join('\n');
  const source = [
    header,
    continued ? `local shared = cjson.decode(ARGV[1])` : `local shared = {}`,
    `local out = {}`,
    `local function finish(halted)`,
    `  for i = #out + 1, ${parts.length} do out[i] = false end`,
    continued ? `  out[${parts.length + 1}] = cjson.encode(shared)\n  out[${parts.length + 2}] = halted and 1 or 0` : '',
    `  return out`,
    `end`,
    `local r, h`,
    ...bodies,
    `return finish(false)`,
  ].join('\n');
  const script = defineLuaScript({
    name,
    keys: keyNames.map((k) => partKey(k.part, k.name)),
    args: argNames.map((a) => (a.part < 0 ? a.name : partKey(a.part, a.name))),
    source,
  });
  return { script, parts, keyNames, argNames };
}

const partKey = (part: number, name: string): string => `p${part + 1}_${name}`;

/** The KEYS and ARGV of a composed script for these calls, in its order. */
function listsOf(
  composed: Composed,
  calls: readonly StepCall[],
  shared: string | undefined,
): { keys: string[]; args: (string | number)[] } {
  const keys: string[] = new Array<string>(composed.keyNames.length);
  for (let i = 0; i < composed.keyNames.length; i += 1) {
    const { part, name } = composed.keyNames[i]!;
    const value = calls[part]?.keys[name];
    if (value === undefined) throw new Error(`${composed.script.name}: no key ${name} for ${composed.parts[part]?.name ?? '?'}`);
    keys[i] = value;
  }
  const args: (string | number)[] = new Array<string | number>(composed.argNames.length);
  for (let i = 0; i < composed.argNames.length; i += 1) {
    const { part, name } = composed.argNames[i]!;
    const value = part < 0 ? (shared ?? '{}') : calls[part]?.args[name];
    if (value === undefined) throw new Error(`${composed.script.name}: no argument ${name} for ${composed.parts[part]?.name ?? '?'}`);
    args[i] = value;
  }
  return { keys, args };
}

/** EVALSHA, and EVAL once when the server lacks the script (runScript's fallback, with the lists ready). */
async function evalLists(redis: Redis, script: LuaScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return redis.eval(script.source, keys.length, ...keys, ...args);
    throw error;
  }
}

interface Plan {
  whole: Composed;
  /** On a cluster: consecutive parts of one slot, in order. */
  slots: { from: number; composed: Composed }[];
}

/** The plans, found by walking the parts (no string built per request). */
interface PlanNode {
  next: Map<AnyPart, PlanNode>;
  plan?: Plan;
}
const plans: PlanNode = { next: new Map() };

function planOf(parts: readonly AnyPart[]): Plan {
  let node = plans;
  for (const part of parts) {
    let next = node.next.get(part);
    if (!next) {
      next = { next: new Map() };
      node.next.set(part, next);
    }
    node = next;
  }
  if (node.plan) return node.plan;
  const id = parts.map((p) => p.name).join('+');
  const slots: Plan['slots'] = [];
  let from = 0;
  for (let i = 1; i <= parts.length; i += 1) {
    if (i === parts.length || parts[i]!.slot !== parts[from]!.slot) {
      slots.push({ from, composed: composeParts(`${id} [${parts[from]!.slot}]`, parts.slice(from, i), true) });
      from = i;
    }
  }
  node.plan = { whole: composeParts(id, parts), slots };
  return node.plan;
}

/** Every script composed so far in this process, whole and per slot (for the convention tests). */
export function composedScripts(): LuaScript[] {
  const found: LuaScript[] = [];
  const walk = (node: PlanNode): void => {
    if (node.plan) found.push(node.plan.whole.script, ...node.plan.slots.map((s) => s.composed.script));
    for (const next of node.next.values()) walk(next);
  };
  walk(plans);
  return found;
}

const isCluster = (redis: Redis): boolean => (redis as { isCluster?: boolean }).isCluster === true;

/**
 * Whether runSteps runs each call's parts as one script on this connection, whatever their slots:
 * on one Redis and behind Sentinel it does; on a cluster a call whose parts span two slots runs as
 * one script per slot. A part may rely on the parts after it in the same call running in the same
 * atomic step only where this holds (admission's claim answered in one script).
 */
export const runsStepsAsOneScript = (redis: Redis): boolean => !isCluster(redis);

/**
 * Runs the calls' parts, in order, in one script (one Redis, Sentinel) or one script per slot in
 * turn (a cluster). Resolves with each part's result (undefined for a part after a halt).
 */
export async function runSteps(redis: Redis, calls: readonly StepCall[]): Promise<unknown[]> {
  const plan = planOf(calls.map((c) => c.part));
  if (runsStepsAsOneScript(redis) || plan.slots.length === 1) {
    const { keys, args } = listsOf(plan.whole, calls, undefined);
    return (await evalLists(redis, plan.whole.script, keys, args)) as unknown[];
  }
  const results: unknown[] = [];
  let shared = '{}';
  for (const slot of plan.slots) {
    const slotCalls = calls.slice(slot.from, slot.from + slot.composed.parts.length);
    const { keys, args } = listsOf(slot.composed, slotCalls, shared);
    const reply = (await evalLists(redis, slot.composed.script, keys, args)) as unknown[];
    const count = slot.composed.parts.length;
    for (let i = 0; i < count; i += 1) results.push(reply[i] ?? undefined);
    shared = typeof reply[count] === 'string' ? reply[count] : shared;
    if (reply[count + 1] === 1) break;
  }
  while (results.length < calls.length) results.push(undefined);
  return results;
}

/** A part to run in a request's script, and what its caller does with the part's result afterwards. */
export interface Step<T> {
  readonly call: StepCall;
  settle(reply: unknown): Promise<T>;
}
