import type { ContextMessage } from '@dialog-relay/contracts';
import { DONE, type JobDecision, type JobPayloads } from '@dialog-relay/queue';
import { attemptDelivery, settleAttempt, type AttemptEnd } from './attempt-delivery.js';
import type { Settlement } from './attempt.store.js';
import { produceReply } from './produce-reply.js';
import { NO_REPLY_METRICS } from './reply-metrics.js';
import type { TurnBatch } from './reply.types.js';
import type { ContextReach, TakeResult } from './turn.store.js';
import type { WorkerDeps } from './worker-deps.js';

/**
 * Turns one job may serve in a row: when a turn ends and messages already wait, the job takes the
 * next turn in the same step that ends this one (SETTLE), without a BullMQ job of its own; after
 * this many, or when the worker drains, the next turn is a job of its own again (queued behind the
 * other conversations' turns). docs/design/reply-protocol.md, "The turn".
 */
export const TURNS_PER_JOB = 16;

/**
 * One run of a conversation's turn job (docs/service-rules.md §6, §14): take the due messages (waiting out the
 * debounce window, never past its ceiling), produce one reply, make one delivery attempt; when the
 * turn is over, advance the conversation and go on to the next turn if messages arrived meanwhile
 * (up to TURNS_PER_JOB; after that job G+1 is queued). Idempotent: a re-run after a crash finds the
 * same batch (the one it took, or went on to), the same delivery id and the stored reply.
 */
export async function processTurn(deps: WorkerDeps, payload: JobPayloads['conversation-turn']): Promise<JobDecision> {
  const { conversationId, generation: carrier } = payload;
  const metrics = deps.metrics ?? NO_REPLY_METRICS;
  let started = deps.nowMs();
  const deliveryId = deps.newDeliveryId(conversationId, carrier);
  // Registered before TAKE marks the attempt in flight: a stop that finds the marker reaches it.
  let inFlight = deps.attempts.register(conversationId, deliveryId);
  try {
    // The context is read as far back as the engine looks (ReplyEngine.contextWindow), not whole,
    // and only the customer's texts for an engine that reads nothing else (contextCustomerTexts).
    const reach: ContextReach = { window: deps.engine.contextWindow, customerTexts: deps.engine.contextCustomerTexts };
    const taken = await deps.turns.take(conversationId, carrier, deliveryId, reach);
    if (taken.kind !== 'batch') {
      const decision = await notTaken(deps, conversationId, carrier, taken);
      metrics.turn(decision.kind === 'wait' ? 'waiting' : 'finished', (deps.nowMs() - started) / 1000);
      return decision;
    }
    let turn: Extract<TakeResult, { kind: 'batch' }> = taken;
    // A batch taken before (its own delivery id, its attempt not open yet) is registered under its id.
    if (turn.batch.deliveryId !== deliveryId) {
      inFlight.release();
      inFlight = deps.attempts.register(conversationId, turn.batch.deliveryId);
    }
    for (let served = 1; ; served++) {
      const { generation } = turn.batch;
      const step = await answer(deps, conversationId, turn, generation, inFlight, started);
      const goOn = step.kind === 'settle' && served < (deps.turnsPerJob ?? TURNS_PER_JOB) && deps.stopping?.aborted !== true;
      let next: GoOn | undefined;
      if (goOn) {
        const nextId = deps.newDeliveryId(conversationId, generation + 1);
        // Registered before SETTLE marks the next attempt in flight, as before TAKE.
        next = { deliveryId: nextId, carrier, reach, inFlight: deps.attempts.register(conversationId, nextId) };
      }
      let ended: Ended | undefined;
      try {
        ended = await closeTurn(deps, conversationId, generation, step, next);
      } finally {
        if (ended?.kind !== 'taken') next?.inFlight.release();
      }
      metrics.turn(ended.kind === 'wait' ? 'waiting' : 'finished', (deps.nowMs() - started) / 1000);
      if (ended.kind !== 'taken') return ended;
      inFlight.release();
      inFlight = ended.inFlight;
      started = deps.nowMs();
      turn = { kind: 'batch', batch: ended.batch, opened: { context: ended.context } };
    }
  } finally {
    inFlight.release();
  }
}

/** A take that found no batch to answer: wait out the debounce, leave a batch to the job serving it, or end the turn. */
async function notTaken(
  deps: WorkerDeps,
  conversationId: string,
  generation: number,
  taken: Exclude<TakeResult, { kind: 'batch' }>,
): Promise<JobDecision> {
  switch (taken.kind) {
    case 'wait':
      return { kind: 'wait', untilMs: deps.nowMs() + taken.ms };
    case 'carried':
      // Another job went on to the live turn (process-turn's TURNS_PER_JOB): it serves it, and what follows.
      return DONE;
    case 'stale':
    case 'stopped':
    case 'empty':
      // Superseded or stopped while this job waited (the stop cancelled its record), or nothing to answer.
      return endTurn(deps, conversationId, generation);
  }
}

/**
 * What a turn's step came to, for endTurn: nothing more to write (the turn just ends), an attempt's
 * outcome to settle, or a hand-back (draining: the next run takes the same batch and id).
 */
export type TurnStep = { kind: 'over'; pauseMs?: number } | { kind: 'settle'; result: AttemptEnd } | { kind: 'handed-back' };

/** The next turn to take when this one ends (SETTLE's goOn), with its attempt registered in flight. */
type GoOn = NonNullable<Settlement['goOn']> & { inFlight: InFlight };

/** How a turn closed: the job's decision, or the next turn taken for the same job (with its registration). */
type Ended = JobDecision | { kind: 'taken'; batch: TurnBatch; context: ContextMessage[]; inFlight: InFlight };

/**
 * The one place a turn ends (docs/design/reply-protocol.md "Finish"): what the steps came to is written
 * with the end of the turn in one script (SETTLE, or FINISH when there is nothing to write), and job
 * G+1 is added when messages arrived meanwhile. A retry does not end the turn: its job waits. A turn
 * whose reply handed off pauses the conversation's bot replies in that same script (docs/service-rules.md §17).
 */
export async function endTurn(
  deps: WorkerDeps,
  conversationId: string,
  generation: number,
  step: TurnStep = { kind: 'over' },
): Promise<JobDecision> {
  const ended = await closeTurn(deps, conversationId, generation, step, undefined);
  // Without goOn, SETTLE never takes the next turn.
  return ended.kind === 'taken' ? DONE : ended;
}

/** endTurn, and with `goOn` (a settlement only) the next turn taken in the same script when messages wait and are due. */
async function closeTurn(
  deps: WorkerDeps,
  conversationId: string,
  generation: number,
  step: TurnStep,
  goOn: GoOn | undefined,
): Promise<Ended> {
  let next: { next: boolean; generation: number; delayMs?: number };
  switch (step.kind) {
    case 'handed-back':
      return { kind: 'wait', untilMs: deps.nowMs() };
    case 'over':
      next = await deps.turns.finish(conversationId, generation, step.pauseMs);
      break;
    case 'settle': {
      const settled = await settleAttempt(
        deps,
        step.result,
        true,
        goOn && { deliveryId: goOn.deliveryId, carrier: goOn.carrier, reach: goOn.reach },
      );
      if (settled.turn === 'open') return retryLater(deps, step.result);
      // SETTLE takes the next turn only when given goOn
      if (settled.turn === 'taken' && settled.taken && goOn) return { kind: 'taken', ...settled.taken, inFlight: goOn.inFlight };
      next = { next: settled.turn === 'next', generation: settled.generation, ...(settled.delayMs ? { delayMs: settled.delayMs } : {}) };
      break;
    }
  }
  // A next turn whose debounce window still runs (SETTLE said how long) is added that late, so its first run takes.
  if (next.next) await deps.jobs.addTurn(conversationId, next.generation, next.delayMs ?? 0);
  return DONE;
}

/** The batch's reply: open its attempt (TAKE did for a batch it took), produce it unless stored, attempt it. */
async function answer(
  deps: WorkerDeps,
  conversationId: string,
  taken: Extract<TakeResult, { kind: 'batch' }>,
  generation: number,
  inFlight: InFlight,
  takenAtMs: number,
): Promise<TurnStep> {
  const { batch } = taken;
  const openedAtMs = taken.opened ? takenAtMs : deps.nowMs();
  const opened = taken.opened
    ? { go: true, record: undefined, attemptsMade: 0, context: taken.opened.context }
    : await deps.attemptStore.open(conversationId, generation, batch.deliveryId);
  // A stop or a human's message came between the take and this check: the reply is cancelled.
  if (!opened.go)
    return {
      kind: 'settle',
      result: withoutAttempt({ conversationId, generation, deliveryId: batch.deliveryId, state: 'cancelled' }, 'refused'),
    };
  let record = opened.record;
  if (!record) {
    try {
      record = await produceReply(deps, batch, opened.context);
    } catch (error) {
      if (!deps.stopping?.aborted) throw error;
      // Draining (docs/service-rules.md §12): handed back, due now; the next run takes the same batch and id.
      deps.logger.info('worker draining: reply production handed back', { conversation_id: conversationId, delivery_id: batch.deliveryId });
      return { kind: 'handed-back' };
    }
  }
  // A reply that hands off pauses the conversation when its turn ends, in the same script (docs/service-rules.md §17).
  const pauseMs = record?.handoff ? (deps.settings.handoffPauseMs ?? 0) : 0;
  if (!record || record.state === 'delivered' || record.state === 'dead' || record.state === 'cancelled') {
    // Nothing (more) to send: the marker goes with the end of the turn.
    return {
      kind: 'settle',
      result: withoutAttempt({ conversationId, generation, deliveryId: batch.deliveryId, ...(pauseMs > 0 ? { pauseMs } : {}) }, 'none'),
    };
  }
  const result = await attemptDelivery(
    deps,
    record,
    { generation, attemptsMade: opened.attemptsMade, produced: !opened.record, openedAtMs },
    inFlight,
  );
  return { kind: 'settle', result: pauseMs > 0 ? { ...result, settlement: { ...result.settlement, pauseMs } } : result };
}

type InFlight = ReturnType<WorkerDeps['attempts']['register']>;

/** A retry's wait, with what the queue dashboard shows meanwhile: the failed attempt's number and status or error code (never a body). */
function retryLater(deps: WorkerDeps, result: AttemptEnd): JobDecision {
  const { settlement, outcome } = result;
  const failure = outcome?.status != null ? `answered ${outcome.status}` : (outcome?.error ?? 'failed');
  return {
    kind: 'wait',
    untilMs: result.retryAtMs ?? deps.nowMs(),
    lastError: `delivery ${settlement.deliveryId} attempt ${settlement.attempt?.attempt ?? '?'}: ${failure}`,
  };
}

/** No attempt was made: refused by the check (the reply is cancelled), or nothing to send (only the marker ends). */
const withoutAttempt = (settlement: AttemptEnd['settlement'], kind: 'refused' | 'none'): AttemptEnd => ({
  settlement,
  next: { kind },
  aborted: false,
  abortedAtMs: 0,
  deadlineMs: 0,
});

/** One run of an operator's redelivery of a dead letter: attempts until delivered, dead again, or stopped. */
export async function processRedelivery(deps: WorkerDeps, payload: JobPayloads['redeliver']): Promise<JobDecision> {
  const stored = await deps.deliveries.get(payload.deliveryId);
  if (!stored || stored.state === 'delivered' || stored.state === 'cancelled' || stored.state === 'dead') return DONE;
  const conversationId = stored.conversation_id;
  const inFlight = deps.attempts.register(conversationId, stored.delivery_id);
  try {
    const openedAtMs = deps.nowMs();
    const opened = await deps.attemptStore.open(conversationId, null, stored.delivery_id);
    const record = opened.record ?? stored;
    const result = opened.go
      ? await attemptDelivery(deps, record, { generation: null, attemptsMade: opened.attemptsMade, produced: false, openedAtMs }, inFlight)
      : withoutAttempt({ conversationId, generation: null, deliveryId: record.delivery_id, state: 'cancelled' }, 'refused');
    const settled = await settleAttempt(deps, result, false);
    return settled.moved === 'retrying' ? retryLater(deps, result) : DONE;
  } finally {
    inFlight.release();
  }
}
