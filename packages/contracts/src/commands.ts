/** The commands a cmd_dialog request may carry in `message_info.content` (docs/service-rules.md §8), compared after trimming. */
export const COMMANDS = ['stop_auto_reply', 'resume_auto_reply', 'auto_reply_status'] as const;
export type Command = (typeof COMMANDS)[number];

/** True when `value` is exactly one of COMMANDS (case-sensitive; the caller trims first). */
export function isCommand(value: string): value is Command {
  return (COMMANDS as readonly string[]).includes(value);
}
