import {
  keptPerKey,
  runScript,
  runsStepsAsOneScript,
  stepCall,
  withSettings,
  type Redis,
  type RedisKeys,
  type StepCall,
} from '@dialog-relay/redis';
import { ADMIT, ADMIT_PART, COMPLETE, COMPLETE_PART, RELEASE } from './admission.lua.js';

/** The first answer to a msg_id, kept for the idempotency window (docs/service-rules.md §9). */
export interface StoredAnswer {
  status: number;
  request_id: string;
  data: unknown;
}

export interface IdempotencyKey {
  client: string;
  eventType: string;
  msgId: string;
}

export type AdmissionResult =
  | { kind: 'admitted' }
  | { kind: 'rate_limited'; retryAfterS: number }
  | { kind: 'replayed' }
  | { kind: 'in_progress' }
  | { kind: 'idempotent'; answer: StoredAnswer };

export interface AdmitInput {
  client: string;
  ratePerS: number;
  nowMs: number;
  /** Identifies this exact signed request (replay refusal); used when there is no msg_id. */
  replayDigest: string;
  idempotency: IdempotencyKey | undefined;
}

/**
 * A value of the answer only the write script knows: `slot`, a string somewhere in the answer's data,
 * is replaced by the word `words` gives for `shared.outcome`, or (`words` '*') by the outcome itself
 * as a bare JSON value (a number).
 */
export interface AnswerOutcome {
  slot: string;
  words: Readonly<Record<string, string>> | '*';
}

export interface Admission {
  admit(input: AdmitInput): Promise<AdmissionResult>;
  /** Keeps the answer for the idempotency window. */
  complete(key: IdempotencyKey, answer: StoredAnswer): Promise<void>;
  /**
   * Frees a claimed msg_id after a failure, so the caller's retry is processed; also the answer
   * this request stored before it failed (`answer`, stored by completeStep in the same script as its writes).
   */
  release(key: IdempotencyKey, answer?: StoredAnswer): Promise<void>;
  /**
   * admit() as a part of a request's first script (docs/design/lua-scripts.md "Composed scripts"); read
   * its result with admitted(). `answeredInCall`: the same call ends with completeStep (the request's
   * writes need no reads), so where runSteps runs a call as one script (one Redis, Sentinel) the
   * msg_id is not claimed before it is answered: one atomic step, two commands fewer.
   */
  admitStep(input: AdmitInput, answeredInCall?: boolean): StepCall;
  admitted(reply: unknown): AdmissionResult;
  /**
   * Whether admitStep's call runs as one script whatever its parts' slots (one Redis, Sentinel; not
   * a cluster): an answer its parts make (completeStep after them) is stored in the script that admits.
   */
  readonly answersInFirstScript: boolean;
  /**
   * complete() as the last part of a request's write script; nothing without a key. `answer.data`
   * may hold `outcome.slot` once, as a string: the script puts there the word `outcome.words` gives
   * for what an earlier part of the script chose (`shared.outcome`).
   */
  completeStep(client: string, key: IdempotencyKey | undefined, answer: StoredAnswer, outcome?: AnswerOutcome): StepCall;
}

export interface AdmissionOptions {
  redis: Redis;
  keys: RedisKeys;
  /** How long a replayed request is recognised: the whole timestamp window (2 x tolerance + 1 s). */
  replayTtlMs: number;
  idempotencyTtlMs: number;
  /** How long a msg_id stays claimed while its first request is processed (then a retry may take it). */
  pendingTtlMs: number;
}

/** A word, or {'existing', value}. */
type AdmitReply = string | [string, string?];

export function createAdmission(options: AdmissionOptions): Admission {
  const { redis, keys, replayTtlMs, idempotencyTtlMs, pendingTtlMs } = options;
  const idemKey = (k: IdempotencyKey): string => keys.idempotency(k.client, k.eventType, k.msgId);
  const admitValues = (input: AdmitInput, idemMode: 'idem' | 'idem-answered' = 'idem') => {
    const rateWindow = keys.rateWindow(input.client, Math.floor(input.nowMs / 1000));
    return input.idempotency
      ? { keys: { rateWindow, guard: idemKey(input.idempotency) }, args: { limit: input.ratePerS, mode: idemMode, ttlMs: pendingTtlMs } }
      : {
          keys: { rateWindow, guard: keys.replay(input.client, input.replayDigest) },
          args: { limit: input.ratePerS, mode: 'replay' as const, ttlMs: replayTtlMs },
        };
  };
  // The parts, made once: a mode and its claim's expiry, and the answer's expiry and outcome words
  // (one part each set of words: a few, fixed by the scenarios), are written into their text.
  const admitParts = {
    idem: withSettings(ADMIT_PART, { mode: 'idem', ttlMs: pendingTtlMs }),
    'idem-answered': withSettings(ADMIT_PART, { mode: 'idem-answered', ttlMs: pendingTtlMs }),
    replay: withSettings(ADMIT_PART, { mode: 'replay', ttlMs: replayTtlMs }),
  };
  // one Redis or Sentinel: a call's parts run as one script, whatever their slots
  const oneScript = runsStepsAsOneScript(redis);
  const completePart = keptPerKey(
    (words: string) => words,
    (words: string) => withSettings(COMPLETE_PART, { outcomeWords: words, ttlMs: idempotencyTtlMs, claimTtlMs: pendingTtlMs }),
  );
  const admitted = (raw: unknown): AdmissionResult => {
    const reply = raw as AdmitReply;
    switch (typeof reply === 'string' ? reply : reply[0]) {
      case 'admitted':
        return { kind: 'admitted' };
      case 'rate_limited':
        return { kind: 'rate_limited', retryAfterS: 1 };
      case 'replayed':
        return { kind: 'replayed' };
      default: {
        const value = (typeof reply === 'string' ? undefined : reply[1]) ?? 'pending';
        return value === 'pending' ? { kind: 'in_progress' } : { kind: 'idempotent', answer: JSON.parse(value) as StoredAnswer };
      }
    }
  };
  return {
    async admit(input) {
      const { keys: k, args } = admitValues(input);
      return admitted(await runScript(redis, ADMIT, k, args));
    },
    admitStep(input, answeredInCall = false) {
      const { keys: k, args } = admitValues(input, answeredInCall && oneScript ? 'idem-answered' : 'idem');
      return stepCall(admitParts[args.mode], k, { limit: args.limit });
    },
    admitted,
    answersInFirstScript: oneScript,
    async complete(key, answer) {
      await runScript(redis, COMPLETE, { idempotency: idemKey(key) }, { answer: JSON.stringify(answer), ttlMs: idempotencyTtlMs });
    },
    completeStep(client, key, answer, outcome) {
      // Without a msg_id the part stores nothing, but its key is in the client's slot all the same (a cluster runs it there).
      if (!key) return stepCall(completePart(''), { idempotency: keys.idempotency(client, '', '') }, { answerHead: '', answerTail: '' });
      const json = JSON.stringify(answer);
      const quoted = outcome === undefined ? '' : JSON.stringify(outcome.slot);
      const at = outcome === undefined ? -1 : json.indexOf(quoted);
      // A word keeps the slot's quotes; a bare value replaces them too.
      const inner = outcome?.words === '*' ? 0 : 1;
      const [head, tail] = at < 0 ? [json, ''] : [json.slice(0, at + inner), json.slice(at + quoted.length - inner)];
      const words = outcome === undefined ? '' : outcome.words === '*' ? '*' : wordsText(outcome.words);
      return stepCall(completePart(words), { idempotency: idemKey(key) }, { answerHead: head, answerTail: tail });
    },
    async release(key, answer) {
      await runScript(redis, RELEASE, { idempotency: idemKey(key) }, { answerPrefix: answer ? answerPrefix(answer) : '' });
    },
  };
}

/** Outcome words as COMPLETE_PART's setting ('queued=queued,stopped=suppressed'), made once per words object (a scenario's constant). */
const wordsTexts = new WeakMap<Readonly<Record<string, string>>, string>();
function wordsText(words: Readonly<Record<string, string>>): string {
  let text = wordsTexts.get(words);
  if (text === undefined) {
    text = Object.entries(words)
      .map(([from, to]) => `${from}=${to}`)
      .join(',');
    wordsTexts.set(words, text);
  }
  return text;
}

/** The start of a stored answer that only this request's answer has: its status and request id. */
const answerPrefix = (answer: StoredAnswer): string => `{"status":${answer.status},"request_id":${JSON.stringify(answer.request_id)},`;
