import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';

export interface ReplyRequest {
  conversationId: string;
  /** The client (integrator) the conversation belongs to; selects its own knowledge file, if it has one. */
  client?: string;
  message: ContextMessage;
  /** earlier messages of the conversation, oldest first, without `message` */
  context: readonly ContextMessage[];
}

/** How a reply came about (docs/service-rules.md §17): the metric's label and the log's word. */
export const REPLY_OUTCOMES = ['answered', 'handoff', 'error'] as const;
export type ReplyOutcome = (typeof REPLY_OUTCOMES)[number];

/** An engine's reply: what to send, and whether the conversation goes to a person. */
export interface EngineReply {
  /** [] means: send nothing */
  content: ReplyPart[];
  /** The engine hands the conversation to a person: its fallback, a model's handoff, a model that failed. */
  handoff: boolean;
  /** The ids of the knowledge entries the reply rests on (possibly none). */
  sources: string[];
  /** answered (from the knowledge), handoff (nothing covers the question), error (the engine failed: its fallback). */
  outcome: ReplyOutcome;
}

export interface ReplyEngine {
  readonly name: string;
  /** How many of the most recent context messages this engine looks at; callers read no more than that. */
  readonly contextWindow: number;
  /**
   * Set when the engine reads nothing of the context but the customer's own texts: the latest this
   * many customer messages with a text part (within contextWindow) are all it needs, and the worker
   * reads only those (docs/design/reply-protocol.md, "The context a turn reads"). Unset: every
   * message of the window.
   */
  readonly contextCustomerTexts?: number;
  reply(request: ReplyRequest, signal?: AbortSignal): Promise<EngineReply>;
  /**
   * The reply when no earlier message could change it, made from the message alone; undefined when
   * the context may matter. Only an engine that answers in the process, with no call out and no
   * cost beyond its CPU, has it: website_dialog asks it before the request is admitted, and reads
   * no context when it answers (docs/design/performance.md, "A reply from the message alone"). After
   * an undefined, `reply` for the same message object may start from what this call found.
   */
  replyAlone?(request: Omit<ReplyRequest, 'context'>): Promise<EarlyReply | undefined>;
}

/**
 * A reply made before its request was admitted (replyAlone). The request may yet be refused or be a
 * repeat answered with its first answer (docs/service-rules.md §9: no second reply): `used` says it
 * is the request's answer, and only then is it counted (countedEngine).
 */
export interface EarlyReply {
  reply: EngineReply;
  /** Call once, when the request is answered with this reply. */
  readonly used: () => void;
}

/** A reply resting on `sources`. */
export const answeredReply = (content: ReplyPart[], sources: string[]): EngineReply => ({
  content,
  handoff: false,
  sources,
  outcome: 'answered',
});

/** The fallback text: a handoff, or an engine's failure (`error`), which hands off too. */
export const handoffReply = (content: ReplyPart[], outcome: 'handoff' | 'error' = 'handoff'): EngineReply => ({
  content,
  handoff: true,
  sources: [],
  outcome,
});

export interface EngineLogger {
  warn(message: string, meta?: Record<string, unknown>): void;
  info?(message: string, meta?: Record<string, unknown>): void;
}
