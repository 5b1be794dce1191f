import type { ContextMessage, ReplyPart } from '@dialog-relay/contracts';

/** The text parts of a message, trimmed, the empty ones left out, joined by newlines ('' when it has none). */
export function messageText(message: ContextMessage): string {
  // one loop, no list per step: a message is mostly one text part, returned as it is when it needs no trim
  let text = '';
  for (const part of message.content) {
    if (part.type !== 'text') continue;
    const trimmed = part.content.trim();
    if (trimmed !== '') text = text === '' ? trimmed : `${text}\n${trimmed}`;
  }
  return text;
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

/** The first `maxChars` UTF-16 units of `text`, without the high half of a surrogate pair the cut would split. */
export function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const last = text.charCodeAt(maxChars - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars);
}
