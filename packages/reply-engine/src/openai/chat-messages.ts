import type { ContextMessage } from '@dialog-relay/contracts';
import { detectLanguage, languageName } from '../language/detect-language.js';
import { messageText, summarizeMessage } from '../message-text.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The customer's language from the newest message, else from their latest earlier message with
 * letters; undefined when none has any (files only, emoji).
 */
export function customerLanguage(context: readonly ContextMessage[], message: ContextMessage): string | undefined {
  const own = detectLanguage(messageText(message));
  if (own !== undefined) return own;
  for (let i = context.length - 1; i >= 0; i--) {
    const earlier = context[i];
    if (earlier?.role !== 'customer') continue;
    const language = detectLanguage(messageText(earlier));
    if (language !== undefined) return language;
  }
  return undefined;
}

/** The line that tells the model which language to answer in. */
export function languageInstruction(language: string): string {
  const name = languageName(language);
  return `The customer writes in ${name} (${language}); answer in ${name}.`;
}

/**
 * The `messages` of a chat-completions request: the system prompt (when not empty) followed by
 * the customer's language (customerLanguage, languageInstruction), the last
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
  const language = customerLanguage(context, message);
  const system = [systemPrompt.trim(), language === undefined ? '' : languageInstruction(language)]
    .filter((line) => line !== '')
    .join('\n\n');
  if (system !== '') messages.push({ role: 'system', content: system });
  messages.push(...conversationMessages(context, message, historyMessages));
  return messages;
}

/**
 * The conversation as chat messages: the last `historyMessages` context messages (customer → user,
 * agent/bot → assistant; files summarised; messages with nothing to say skipped), then the incoming
 * message as user. The customer's words are only ever in user messages.
 */
export function conversationMessages(context: readonly ContextMessage[], message: ContextMessage, historyMessages: number): ChatMessage[] {
  const messages: ChatMessage[] = [];
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
