/** A model's grounded answer, read from the text of its reply (docs/service-rules.md §17). */
export interface GroundedAnswer {
  answer: string;
  handoff: boolean;
  /** As the model named them (not yet checked against the prompt's entries). */
  sources: string[];
  /** The answer came as the JSON asked for (false: plain text, taken as the answer itself). */
  structured: boolean;
}

/** A whole reply that is one fenced block (```json … ```), as servers without structured outputs often answer. */
const FENCED = /^```[\w-]*\s*\n([\s\S]*?)\n?\s*```$/;

/**
 * Reads `{answer, handoff, sources}` from a completion's text. A server that ignores `response_format`
 * may answer plain text (taken as the answer: no handoff, no sources) or the JSON inside a fenced
 * block. Text that looks like JSON but is not the object asked for is a problem: sending it to the
 * customer would show them machine output.
 */
export function readGroundedAnswer(text: string): GroundedAnswer | { problem: string } {
  const trimmed = text.trim();
  const body = (FENCED.exec(trimmed)?.[1] ?? trimmed).trim();
  if (!body.startsWith('{')) return { answer: trimmed, handoff: false, sources: [], structured: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: 'answer is not valid JSON' };
  }
  const { answer, handoff, sources } = (parsed ?? {}) as { answer?: unknown; handoff?: unknown; sources?: unknown };
  if (typeof answer !== 'string') return { problem: 'answer JSON has no string "answer"' };
  return {
    answer: answer.trim(),
    handoff: handoff === true,
    sources: Array.isArray(sources) ? sources.filter((id): id is string => typeof id === 'string') : [],
    structured: true,
  };
}
