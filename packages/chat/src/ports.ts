import type { ClientSettings } from '@dialog-relay/config';
import type { AutoReplyStatusView, ContextMessage, DueMessage, MessageInfo } from '@dialog-relay/contracts';

/**
 * One part of a request's script (packages/redis StepCall, docs/design/lua-scripts.md "Composed scripts"):
 * the stores make them, the service runs the parts of one phase together.
 */
export interface ScriptCall {
  readonly part: unknown;
  readonly keys: Readonly<Record<string, string>>;
  readonly args: Readonly<Record<string, string | number>>;
}

/** A part and what its maker does with the part's result afterwards. */
export interface Step<T> {
  readonly call: ScriptCall;
  settle(reply: unknown): Promise<T>;
}

/** Runs the parts, in order, as one script (one Redis, Sentinel) or one per slot (a cluster); each part's result, in order. */
export type RunScriptParts = (calls: readonly ScriptCall[]) => Promise<unknown[]>;

/**
 * The asynchronous half as the ingress needs it (declared here, implemented by the replies
 * package): queue a reply, let a human take over, stop, resume, show status.
 */
export interface AutoReplies {
  /** Queues (or joins, within the debounce window) the conversation's next reply; 'stopped' or 'paused' when none will come. */
  schedule: (message: DueMessage) => Promise<'queued' | 'stopped' | 'paused' | 'full'>;
  /** schedule() as a part of the accept script: 'full' (PENDING_MESSAGES_MAX waiting) ends the script; its outcome names the answer's status. */
  scheduleStep: (message: DueMessage) => Step<'queued' | 'stopped' | 'paused' | 'full'>;
  /** stop(), resume(), status() as parts of the request's scripts. */
  stopStep(conversationId: string): Step<number>;
  resumeStep(conversationId: string): Step<void>;
  /** `keepReads`: its reads are also left for the script's COMPLETE part to store as the answer (statusOfKeptReads renders them). */
  statusStep(conversationId: string, keepReads?: boolean): Step<AutoReplyStatusView>;
  /** The status a status step's kept reads show, as stored in an idempotent answer (a replay). */
  statusOfKeptReads(kept: unknown): Promise<AutoReplyStatusView>;
  /** A person wrote to the customer on the bound account or as staff (docs/service-rules.md §14): cancel the unsent reply, pause if configured. */
  humanReplied(conversationId: string): Promise<void>;
  /** Stops the conversation's auto replies; answers once no attempt can start. Returns how many messages lost their pending reply. */
  stop(conversationId: string): Promise<number>;
  resume(conversationId: string): Promise<void>;
  status(conversationId: string): Promise<AutoReplyStatusView>;
}

/**
 * Confirms that what a request wrote is on the replicas the deployment asks for (docs/design/scaling.md);
 * rejects (an unavailable-Redis error, answered 503) when fewer confirm in time.
 */
export interface Replication {
  /** Called before the request's first write; confirm() of the result once all were acknowledged. */
  begin(): { confirm(): Promise<void> };
}

export type ClientLookup = (id: string) => Promise<ClientSettings | undefined>;
export type { ContextMessage, MessageInfo };
