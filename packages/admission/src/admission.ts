import { runScript, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { ADMIT, COMPLETE, RELEASE } from './admission.lua.js';

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

export interface Admission {
  admit(input: AdmitInput): Promise<AdmissionResult>;
  /** Keeps the answer for the idempotency window. */
  complete(key: IdempotencyKey, answer: StoredAnswer): Promise<void>;
  /** Frees a claimed msg_id after a failure, so the caller's retry is processed. */
  release(key: IdempotencyKey): Promise<void>;
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

type AdmitReply = [string, string?];


export function createAdmission(options: AdmissionOptions): Admission {
  const { redis, keys, replayTtlMs, idempotencyTtlMs, pendingTtlMs } = options;
  const idemKey = (k: IdempotencyKey): string => keys.idempotency(k.client, k.eventType, k.msgId);
  return {
    async admit(input) {
      const second = Math.floor(input.nowMs / 1000);
      const rateKey = keys.rateWindow(input.client, second);
      const reply = (input.idempotency
        ? await runScript(redis, ADMIT, { rateWindow: rateKey, guard: idemKey(input.idempotency) }, { limit: input.ratePerS, mode: 'idem', ttlMs: pendingTtlMs })
        : await runScript(redis, ADMIT, { rateWindow: rateKey, guard: keys.replay(input.client, input.replayDigest) }, { limit: input.ratePerS, mode: 'replay', ttlMs: replayTtlMs })) as AdmitReply;
      switch (reply[0]) {
        case 'admitted':
          return { kind: 'admitted' };
        case 'rate_limited':
          return { kind: 'rate_limited', retryAfterS: 1 };
        case 'replayed':
          return { kind: 'replayed' };
        default: {
          const value = reply[1] ?? 'pending';
          return value === 'pending' ? { kind: 'in_progress' } : { kind: 'idempotent', answer: JSON.parse(value) as StoredAnswer };
        }
      }
    },
    async complete(key, answer) {
      await runScript(redis, COMPLETE, { idempotency: idemKey(key) }, { answer: JSON.stringify(answer), ttlMs: idempotencyTtlMs });
    },
    async release(key) {
      await runScript(redis, RELEASE, { idempotency: idemKey(key) }, {});
    },
  };
}
