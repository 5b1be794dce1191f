import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';

export interface ReplyRequest {
  conversationId: string;
  /** The client (integrator) the conversation belongs to; selects its own knowledge file, if it has one. */
  client?: string;
  message: ContextMessage;
  /** earlier messages of the conversation, oldest first, without `message` */
  context: readonly ContextMessage[];
}

export interface ReplyEngine {
  readonly name: string;
  /** How many of the most recent context messages this engine looks at; callers read no more than that. */
  readonly contextWindow: number;
  /** [] means: send nothing */
  reply(request: ReplyRequest, signal?: AbortSignal): Promise<ReplyPart[]>;
}

export interface EngineLogger {
  warn(message: string, meta?: Record<string, unknown>): void;
  info?(message: string, meta?: Record<string, unknown>): void;
}
