import type { AutoReplyStatusView } from './auto-reply-status.js';
import type { Command } from './commands.js';
import { fieldList } from './field-list.js';

/** The answer's data of stop_auto_reply: auto reply is stopped, its pending replies cancelled. */
export interface StopAnswerData {
  conversation_id: string;
  command: 'stop_auto_reply';
  auto_reply: 'stopped';
  /** Messages whose pending reply was cancelled. */
  cancelled: number;
}

export interface ResumeAnswerData {
  conversation_id: string;
  command: 'resume_auto_reply';
  auto_reply: 'active';
}

/** The answer's data of auto_reply_status: the conversation's status view. */
export interface StatusAnswerData extends AutoReplyStatusView {
  conversation_id: string;
  command: 'auto_reply_status';
}

/** The answer's data of each cmd_dialog command (docs/service-rules.md §8). */
export interface CommandAnswers {
  stop_auto_reply: StopAnswerData;
  resume_auto_reply: ResumeAnswerData;
  auto_reply_status: StatusAnswerData;
}
/** Fails to compile when a command has no answer above. */
export type CommandAnswerData = CommandAnswers[Command];

export const STOP_ANSWER_FIELDS = fieldList<StopAnswerData>({ conversation_id: true, command: true, auto_reply: true, cancelled: true });
export const RESUME_ANSWER_FIELDS = fieldList<ResumeAnswerData>({ conversation_id: true, command: true, auto_reply: true });
