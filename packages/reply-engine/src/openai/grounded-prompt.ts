import type { RetrievedEntry } from '../knowledge/retrieve-entries.js';
import { languageName } from '../language/detect-language.js';

/**
 * The fixed rules that follow the operator's OPENAI_SYSTEM_PROMPT in a grounded prompt
 * (docs/service-rules.md §17): the entries are the only facts; greetings and thanks may be answered;
 * anything else they do not cover is handed to a person.
 */
export const GROUNDING_RULES = [
  'Rules for every answer:',
  '- The knowledge entries below are your only source of facts. Answer only from them; never add facts, numbers, dates, prices, promises or policies they do not state.',
  '- Greetings, thanks and goodbyes may be answered briefly without an entry.',
  '- When the entries do not answer the customer\'s question, or the customer asks for a person, do not guess: set "handoff" to true and a colleague will take over.',
  '- Answer with a JSON object: "answer" (your reply to the customer), "handoff" (true or false), "sources" (the ids of the entries your answer uses, [] for none).',
].join('\n');

/** The `response_format` of a grounded request: OpenAI structured outputs, also accepted by vLLM, Ollama and llama.cpp servers. */
export const GROUNDED_RESPONSE_FORMAT = Object.freeze({
  type: 'json_schema',
  json_schema: {
    name: 'grounded_reply',
    strict: true,
    schema: {
      type: 'object',
      properties: {
        answer: { type: 'string' },
        handoff: { type: 'boolean' },
        sources: { type: 'array', items: { type: 'string' } },
      },
      required: ['answer', 'handoff', 'sources'],
      additionalProperties: false,
    },
  },
});

/** The line naming the customer's language (the language of the newest message, else of their latest one with letters). */
export function replyLanguageRule(language: string | undefined): string {
  if (language === undefined) return '- Reply in the language the customer writes in.';
  const name = languageName(language);
  return `- The customer writes in ${name} (${language}): reply in ${name}.`;
}

export interface GroundedSystem {
  content: string;
  /** The ids of the entries the prompt shows: the only sources an answer may name. */
  shown: string[];
}

/** One entry as the prompt shows it: its id, then its answer's text parts, a file named by its kind ("(image attached)"). */
const entryBlock = (entry: RetrievedEntry): string => {
  const lines = entry.parts
    .map((part) => (part.type === 'text' ? part.content.trim() : `(${part.type} attached)`))
    .filter((line) => line !== '');
  return `[id: ${entry.id}]\n${lines.join('\n')}`;
};

/**
 * The system message of a grounded request: the operator's prompt (the voice), the fixed rules, the
 * customer's language, then the entries, best first, while they fit in `maxChars` (their blocks
 * together; a first entry longer than that alone is cut to it). Only operator content goes here: the
 * customer's words are in user messages.
 */
export function groundedSystemMessage(
  systemPrompt: string,
  language: string | undefined,
  entries: readonly RetrievedEntry[],
  maxChars: number,
): GroundedSystem {
  const blocks: string[] = [];
  const shown: string[] = [];
  let used = 0;
  for (const entry of entries) {
    let block = entryBlock(entry);
    if (used + block.length > maxChars) {
      if (blocks.length > 0) break;
      block = block.slice(0, maxChars);
    }
    blocks.push(block);
    shown.push(entry.id);
    used += block.length;
  }
  const knowledge =
    blocks.length > 0
      ? `Knowledge entries (each: its id, then its answer):\n\n${blocks.join('\n\n')}`
      : 'Knowledge entries: none match this conversation.';
  const content = [systemPrompt.trim(), `${GROUNDING_RULES}\n${replyLanguageRule(language)}`, knowledge]
    .filter((part) => part !== '')
    .join('\n\n');
  return { content, shown };
}
