import type { ClientSettings } from '@dialog-relay/config';
import type { ChatMessageRequest, Command } from '@dialog-relay/contracts';
import type { ContextStore, MessageIndex } from '@dialog-relay/conversations';
import type { Logger } from '@dialog-relay/logger';
import type { ReplyEngine } from '@dialog-relay/reply-engine';
import type { AutoReplies, Replication } from '../ports.js';

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
}

export interface ScenarioResult {
  status: number;
  conversationId: string;
  data: Record<string, unknown>;
  /** Redis writes that may go out together with storing the idempotent answer (one round trip). */
  commit: () => Promise<unknown>;
}

export const nothingToCommit = (): Promise<void> => Promise.resolve();

/**
 * A scenario starts its reads at once (they have no side effects, so they may go out in the same
 * round trip as admission) and returns `finish`, which the service calls once the request is admitted.
 */
export interface StartedScenario {
  reads: Promise<unknown>;
  finish: () => Promise<ScenarioResult>;
}

export type Scenario = (deps: ScenarioDeps, input: ScenarioInput) => StartedScenario;

export const noReads: Promise<undefined> = Promise.resolve(undefined);
