import { stemmer } from 'stemmer';

/**
 * The Porter stem of an English word ("shipping" → "ship", "refunds" → "refund"), so inflections
 * match. Stems of different parts of speech can still differ ("deliveri" / "deliv"); the index
 * matches those by prefix.
 */
export function englishStem(word: string): string {
  return stemmer(word);
}
