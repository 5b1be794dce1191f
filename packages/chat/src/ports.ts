import type { ClientSettings } from '@dialog-relay/config';
import type { ContextMessage, MessageInfo } from '@dialog-relay/contracts';

/** A customer message that is due an automatic reply (CONTRACT §6), as the ingress hands it to the queue. */
export interface DueMessage {
  client: string;
  conversationId: string;
  msgId: string;
  sendUrl: string;
  /** Where the reply goes and who it is from: the bound account answers the customer. */
  groupId: string | undefined;
  groupName: string | undefined;
  customerId: string;
  boundAccountId: string;
  receivedAtMs: number;
}

export interface PendingReply {
  msg_ids: string[];
  state: string;
}

export interface DeliveryAttemptView {
  attempt: number;
  at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
}

export interface DeliveryView {
  delivery_id: string;
  state: string;
  in_reply_to: string[];
  attempts: DeliveryAttemptView[];
}

/** The asynchronous half seen from the ingress: implemented with BullMQ by the queue package. */
export interface AutoReplyQueue {
  /** Queues (or joins, within the debounce window) the conversation's next reply; 'stopped' when auto reply is stopped. */
  schedule(message: DueMessage): Promise<'queued' | 'stopped'>;
  /** Stops the conversation's auto replies: flag set, waiting and delayed replies removed. Returns how many messages lost their pending reply. */
  stop(conversationId: string): Promise<number>;
  resume(conversationId: string): Promise<void>;
  isStopped(conversationId: string): Promise<boolean>;
  status(conversationId: string): Promise<{ pending: PendingReply[]; deliveries: DeliveryView[] }>;
}

export type ClientLookup = (id: string) => Promise<ClientSettings | undefined>;
export type { ContextMessage, MessageInfo };
