import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';

/** The text parts of a message, joined by newlines ('' when it has none). */
export function messageText(message: ContextMessage): string {
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.content.trim())
    .filter((text) => text !== '')
    .join('\n');
}

/** A message as plain text: text parts verbatim, files summarised as "[image]", "[document]", "[voice]". */
export function summarizeMessage(message: ContextMessage): string {
  return message.content
    .map((part) => (part.type === 'text' ? part.content.trim() : `[${part.type}]`))
    .filter((text) => text !== '')
    .join('\n');
}

/** Copies of reply parts, so callers cannot alter an engine's stored answers. */
export function copyParts(parts: readonly ReplyPart[]): ReplyPart[] {
  return parts.map((part) => ({ type: part.type, content: part.content }));
}
