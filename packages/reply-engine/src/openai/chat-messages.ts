import type { ContextMessage } from '@dialog-relay/contracts';
import { summarizeMessage } from '../message-text.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The `messages` of a chat-completions request: the system prompt (when not empty), the last
 * `historyMessages` context messages (customer → user, agent/bot → assistant; files summarised as
 * "[image]", "[document]", "[voice]"; messages with nothing to say skipped), then the incoming
 * message as user.
 */
export function buildChatMessages(
  systemPrompt: string,
  context: readonly ContextMessage[],
  message: ContextMessage,
  historyMessages: number,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (systemPrompt.trim() !== '') messages.push({ role: 'system', content: systemPrompt });
  const history = historyMessages > 0 ? context.slice(-historyMessages) : [];
  for (const earlier of history) {
    const content = summarizeMessage(earlier);
    if (content !== '') messages.push({ role: earlier.role === 'customer' ? 'user' : 'assistant', content });
  }
  messages.push({ role: 'user', content: summarizeMessage(message) });
  return messages;
}

/** The trimmed text of choices[0].message.content of a chat-completions response body, if any. */
export function readCompletionText(body: string): { text: string } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: 'response is not valid JSON' };
  }
  const choices = (parsed as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return { problem: 'response has no choices' };
  const content = (choices[0] as { message?: { content?: unknown } } | null)?.message?.content;
  if (typeof content !== 'string') return { problem: 'choices[0].message.content is not a string' };
  const text = content.trim();
  return text === '' ? { problem: 'answer is empty' } : { text };
}
