import { fieldList, type FieldPresence } from './field-list.js';
import type { ReplyPart } from './message.types.js';

/**
 * The answer's data of website_dialog (the reply, recorded) and assist_dialog (a suggestion, not
 * recorded): every reply says whether it hands off, and which knowledge entries it rests on
 * (docs/service-rules.md §17).
 */
export interface SyncReplyData {
  conversation_id: string;
  /** The reply's id. */
  msg_id: string;
  in_reply_to: string[];
  content: ReplyPart[];
  /** True when the reply hands the conversation to a person (the fallback text), or the engine failed. */
  handoff: boolean;
  /** Ids of the knowledge entries the reply rests on; empty for a handoff, a greeting, or an engine without knowledge. */
  sources: string[];
}

const SYNC_REPLY_PRESENCE: FieldPresence<SyncReplyData> = {
  conversation_id: true,
  msg_id: true,
  in_reply_to: true,
  content: true,
  handoff: true,
  sources: true,
};
export const SYNC_REPLY_FIELDS = fieldList<SyncReplyData>(SYNC_REPLY_PRESENCE);

export interface AssistReplyData extends SyncReplyData {
  /** True when the msg_id was seen in auto_dialog and that conversation was used. */
  context_reused: boolean;
}

export const ASSIST_REPLY_FIELDS = fieldList<AssistReplyData>({ ...SYNC_REPLY_PRESENCE, context_reused: true });
