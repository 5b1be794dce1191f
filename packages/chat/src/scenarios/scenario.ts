import type { ClientSettings } from '@dialog-relay/config';
import type { ChatMessageRequest, Command, ContextMessage } from '@dialog-relay/contracts';
import type { AnswerOutcome } from '@dialog-relay/admission';
import { contextMessageFrom, type ContextStore, type MessageIndex } from '@dialog-relay/conversations';
import type { Logger } from '@dialog-relay/logger';
import type { ReplyEngine, ReplyRequest } from '@dialog-relay/reply-engine';
import type { AutoReplies, Replication, ScriptCall } from '../ports.js';

export interface ScenarioDeps {
  contexts: ContextStore;
  messageIndex: MessageIndex;
  engine: ReplyEngine;
  autoReplies: AutoReplies;
  /** Where REDIS_WAIT_REPLICAS asks for it: an auto_dialog message is on the replicas before its 202. */
  replication?: Replication;
  newId: () => string;
  nowMs: () => number;
}

export interface ScenarioInput {
  request: ChatMessageRequest;
  client: ClientSettings;
  /** The caller's msg_id, or one the service made up for a message that had none. */
  msgId: string;
  sendUrl: string | undefined;
  command: Command | undefined;
  logger: Logger;
  /**
   * An answer the scenario makes from its reads alone can be stored in the reads' own script: the
   * request has a msg_id and its first script runs as one (one Redis, Sentinel). See `answerOfReads`.
   */
  answerInReads: boolean;
}

/**
 * What a scenario writes, in one script with its idempotent answer (docs/design/performance.md "Command
 * budgets"): `writes` run first, then the answer is stored; `settle` reads the parts' results
 * (the answer's data as it is finally sent, or an AppError that refuses the request).
 */
export interface ScenarioResult {
  status: number;
  conversationId: string;
  /** The answer's data; may hold `outcome.slot`, filled by the write script (the stored answer) and by settle (the one sent). */
  data: Record<string, unknown>;
  writes: readonly ScriptCall[];
  outcome?: AnswerOutcome;
  /** The write script's results of `writes`, in order; resolves with the data to send. */
  settle(replies: readonly unknown[]): Promise<Record<string, unknown>>;
  /** The writes must be on the replicas before the answer (auto_dialog, docs/design/scaling.md). */
  replicated?: boolean;
}

/**
 * A scenario names its reads (parts of the request's first script, with admission: they have no
 * side effects, so they may run before the request is admitted) and returns `finish`, which the
 * service calls with their results once the request is admitted.
 */
export interface StartedScenario {
  reads: readonly ScriptCall[];
  finish: (replies: readonly unknown[]) => Promise<ScenarioResult>;
  /**
   * The result made before the request is admitted, when the scenario can make it without its reads
   * (resolves undefined when it cannot: then `reads` run with admission and `finish` follows). Its
   * writes run in admission's own script, which admission halts when it refuses the request
   * (docs/design/lua-scripts.md "Composed scripts"). Only work that may be spent on a request then
   * refused belongs here: describing the writes (auto_dialog, stop, resume), or an engine's
   * replyAlone (website_dialog: the CPU of a local engine, no call out).
   */
  finishEarly?: () => Promise<ScenarioResult | undefined>;
  /**
   * Only when `answerInReads`: the scenario writes nothing and makes its answer from its reads alone
   * (auto_reply_status). The stored answer is this data, whose `outcome.slot` the script fills with
   * the reads as JSON, in the request's first script: one round trip. A replay renders them (replayedData).
   */
  answerOfReads?: { status: number; conversationId: string; data: Record<string, unknown>; outcome: AnswerOutcome };
}

/** A stored answer's data as sent again (an idempotent replay): the data itself, unless the scenario stored what it read. */
export type ReplayedData = (deps: ScenarioDeps, data: unknown) => Promise<unknown>;

export type Scenario = (deps: ScenarioDeps, input: ScenarioInput) => StartedScenario;

/** The data as the write script left it. */
export const settled = (data: Record<string, unknown>) => (): Promise<Record<string, unknown>> => Promise.resolve(data);

/**
 * What the engine is asked for a synchronous reply (assist_dialog, website_dialog): the request's
 * message as the context records it (`message`, which the scenario records too; made here unless
 * given) and the context without that message.
 */
export function engineRequestOf(
  input: ScenarioInput,
  conversationId: string,
  context: readonly ContextMessage[],
  message: ContextMessage = contextMessageFrom(input.request.message_info, input.msgId),
): ReplyRequest {
  const { client, msgId } = input;
  return { conversationId, client: client.id, message, context: context.filter((m) => m.msg_id !== msgId) };
}
