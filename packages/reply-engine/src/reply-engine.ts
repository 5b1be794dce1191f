import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';

export interface ReplyRequest {
  conversationId: string;
  message: ContextMessage;
  /** earlier messages of the conversation, oldest first, without `message` */
  context: readonly ContextMessage[];
}

export interface ReplyEngine {
  readonly name: string;
  /** [] means: send nothing */
  reply(request: ReplyRequest, signal?: AbortSignal): Promise<ReplyPart[]>;
}

export interface EngineLogger {
  warn(message: string, meta?: Record<string, unknown>): void;
}
