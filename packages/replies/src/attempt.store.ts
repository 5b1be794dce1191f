import type { ContextMessage } from '@dialog-relay/contracts';
import { parseContextMessages } from '@dialog-relay/conversations';
import { keptPerKey, runScript, type Redis, type RedisKeys } from '@dialog-relay/redis';
import { OPEN_ATTEMPT, SETTLE_RECORD_FIELDS, settleScript } from './attempt.lua.js';
import { reachKey } from './reach.lua.js';
import { parseRecord, recordValues } from './delivery.store.js';
import {
  RECORD_FIELDS,
  type DeadReason,
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryState,
  type TurnBatch,
} from './reply.types.js';
import { parseBatch, type ContextReach } from './turn.store.js';

/** An attempt opened on a reply taken before (OPEN_ATTEMPT). */
export interface OpenedAttempt {
  /** false: stopped, or the turn moved on; nothing is marked in flight. */
  go: boolean;
  /** The stored reply (a retry, a re-run after it was stored); undefined: it must be produced. */
  record: DeliveryRecord | undefined;
  /** Attempts made before this one. */
  attemptsMade: number;
  /** The conversation's context when the reply must be produced ([] otherwise). */
  context: ContextMessage[];
}

/** Everything that follows an attempt, or a turn that ends without one, written in one step (SETTLE). */
export interface Settlement {
  conversationId: string;
  /** The turn's generation; null for an operator's redelivery. */
  generation: number | null;
  deliveryId: string;
  /** A reply produced by this run: stored unless a record exists. */
  produced?: DeliveryRecord;
  /** Where the record moves (from pending or retrying only; a stopped or superseded turn makes it cancelled). */
  state?: Exclude<DeliveryState, 'pending'>;
  dead?: { reason: DeadReason; detail: string; atMs: number };
  attempt?: DeliveryAttempt;
  /** The reply as the context records it once delivered. */
  reply?: ContextMessage;
  /** The turn ends here (unless the record moved to retrying). */
  endTurn: boolean;
  /** > 0: the turn's reply handed off; ending the turn pauses the conversation's auto replies this long (HANDOFF_PAUSE_S). */
  pauseMs?: number;
  /**
   * When the turn ends and messages wait, take the next turn for the same job (docs/design/reply-protocol.md
   * "The turn"): its delivery id, and the generation of the job going on (the batch names it).
   */
  goOn?: { deliveryId: string; carrier: number; reach?: ContextReach };
}

export interface Settled {
  /** The state the record moved to; '' when it did not move (already final, or no state asked). */
  moved: Exclude<DeliveryState, 'pending'> | '';
  /**
   * next: messages wait, job `generation` must be added; idle: the turn ended; open: it goes on (a
   * retry); taken: the next turn (`generation`) was taken for the same job (Settlement.goOn): `taken`.
   */
  turn: 'next' | 'idle' | 'open' | 'taken';
  generation: number;
  /** The next turn's batch, its attempt marked in flight, and the conversation's context (turn 'taken'). */
  taken?: { batch: TurnBatch; context: ContextMessage[] };
  /** turn 'next' asked to go on: how long the next turn's debounce window still runs (its job is added that late). */
  delayMs?: number;
}

/** The worker's steps around an attempt that touch the turn, the record and the context together (attempt.lua.ts). */
export interface AttemptStore {
  open(conversationId: string, generation: number | null, deliveryId: string): Promise<OpenedAttempt>;
  settle(settlement: Settlement): Promise<Settled>;
}

export interface AttemptStoreDeps {
  redis: Redis;
  keys: RedisKeys;
  /** Expiry of the in-flight marker (config: longer than one attempt). */
  attemptMarkerTtlMs: number;
  /** CONTEXT_TTL_S: a record and its attempts. */
  recordTtlS: number;
  /** DEAD_LETTER_TTL_S. */
  deadLetterTtlS: number;
  /** CONTEXT_MAX_MESSAGES and CONTEXT_TTL_S in ms: the context a delivered reply joins. */
  context: { maxMessages: number; ttlMs: number };
  /** How the next turn is taken when a settlement goes on to it (the turn store's TurnTimings); none: it never does. */
  take?: { debounceMs: number; maxWaitMs: number; pendingTtlMs: number };
}

const pairsToHash = (pairs: readonly string[]): Record<string, string> => {
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < pairs.length; i += 2) hash[pairs[i]!] = pairs[i + 1]!;
  return hash;
};

/** Where SETTLE_RECORD_FIELDS stand among a record's values (recordValues: RECORD_FIELDS' order). */
const SETTLE_RECORD_INDEXES = SETTLE_RECORD_FIELDS.map((field) => RECORD_FIELDS.indexOf(field));

/** A produced record's values as SETTLE takes them (SETTLE_RECORD_FIELDS): its ids are the call's own. */
function settleRecordValues(record: DeliveryRecord, deliveryId: string, conversationId: string): string[] {
  if (record.delivery_id !== deliveryId || record.conversation_id !== conversationId)
    throw new Error(`a record of ${record.delivery_id} (${record.conversation_id}) settled as ${deliveryId} (${conversationId})`);
  const values = recordValues(record);
  return SETTLE_RECORD_INDEXES.map((index) => values[index]!);
}

export function createAttemptStore(deps: AttemptStoreDeps): AttemptStore {
  const { redis, keys, take } = deps;
  // Made once (once per engine reach asked for): what every call would pass alike is written into
  // the script's text. A call that does not go on to the next turn reads no context: it runs the
  // script without a reach (one engine, two scripts).
  const settleSettings = {
    recordTtlS: deps.recordTtlS,
    deadTtlS: deps.deadLetterTtlS,
    contextCap: deps.context.maxMessages,
    contextTtlMs: deps.context.ttlMs,
    debounceMs: take?.debounceMs ?? 0,
    maxWaitMs: take?.maxWaitMs ?? 0,
    batchTtlMs: take?.pendingTtlMs ?? 0,
    markerTtlMs: deps.attemptMarkerTtlMs,
  };
  const settleFor = keptPerKey(reachKey, (reach: ContextReach | undefined) => settleScript(settleSettings, reach));
  return {
    async open(c, generation, deliveryId) {
      const [go, record, made, context] = (await runScript(
        redis,
        OPEN_ATTEMPT,
        {
          stop: keys.autoReplyStopped(c),
          generation: keys.replyGeneration(c),
          attempts: keys.attemptsInFlight(c),
          delivery: keys.delivery(deliveryId),
          deliveryAttempts: keys.deliveryAttempts(deliveryId),
          order: keys.contextOrder(c),
          messages: keys.contextMessages(c),
        },
        { generation: generation ?? '', deliveryId, ttlMs: deps.attemptMarkerTtlMs },
      )) as [number, string[], number, string[]];
      return {
        go: go === 1,
        record: parseRecord(pairsToHash(record)),
        attemptsMade: Number(made),
        context: parseContextMessages(context),
      };
    },
    async settle(s) {
      const c = s.conversationId;
      const id = s.deliveryId;
      const reply = (await runScript(
        redis,
        settleFor(s.goOn?.reach),
        {
          generation: keys.replyGeneration(c),
          batch: keys.replyBatch(c),
          pending: keys.pendingReplies(c),
          stop: keys.autoReplyStopped(c),
          attempts: keys.attemptsInFlight(c),
          delivery: keys.delivery(id),
          conversationDeliveries: keys.conversationDeliveries(c),
          deliveryAttempts: keys.deliveryAttempts(id),
          deadLetters: keys.deadLetters(keys.shardOfDelivery(id)),
          order: keys.contextOrder(c),
          messages: keys.contextMessages(c),
          paused: keys.pausedUntil(c),
          oldest: keys.pendingOldest(c),
          waiting: keys.waitingConversations(keys.shardOf(c)),
          since: keys.pendingSince(c),
        },
        {
          generation: s.generation ?? '',
          deliveryId: id,
          state: s.state ?? '',
          reason: s.dead?.reason ?? '',
          detail: s.dead?.detail ?? '',
          atMs: s.dead?.atMs ?? 0,
          attempt: s.attempt ? JSON.stringify(s.attempt) : '',
          reply: s.reply ? JSON.stringify(s.reply) : '',
          endTurn: s.endTurn ? '1' : '0',
          pauseMs: s.pauseMs ?? 0,
          conversationId: c,
          nextDeliveryId: s.goOn && take && s.generation !== null ? s.goOn.deliveryId : '',
          carrier: s.goOn?.carrier ?? '',
        },
        s.produced ? settleRecordValues(s.produced, id, c) : [],
      )) as [string, string, string, string?, string[]?];
      const settled: Settled = { moved: reply[0] as Settled['moved'], turn: reply[1] as Settled['turn'], generation: Number(reply[2]) };
      if (settled.turn === 'taken') settled.taken = { batch: parseBatch(reply[3] ?? ''), context: parseContextMessages(reply[4]) };
      else if (settled.turn === 'next' && reply[3] !== undefined) settled.delayMs = Number(reply[3]);
      return settled;
    },
  };
}
