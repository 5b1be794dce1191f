import { stemmer } from 'stemmer';

/**
 * Words whose Porter stem would meet an unrelated word's: "customer" and "customs" both become
 * "custom", "personal" becomes "person", "business" meets "busy", "instalment" meets "install",
 * "manager" meets "manage". Each keeps a stem of its own, so a shop's customs entry is not what a
 * "customer" asks about. (Stems that still share a short prefix match a little, see term-expansion.)
 */
const STEM_EXCEPTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    customer: ['customer', 'customers'],
    customs: ['customs'],
    customis: ['custom', 'customize', 'customized', 'customizing', 'customization', 'customizable'],
    personal: ['personal', 'personally'],
    business: ['business', 'businesses'],
    instalment: ['instalment', 'instalments', 'installment', 'installments'],
    manager: ['manager', 'managers'],
    universal: ['universal'],
  }).flatMap(([stem, words]) => words.map((word): [string, string] => [word, stem])),
);

/**
 * The Porter stem of an English word ("shipping" → "ship", "refunds" → "refund"), so inflections
 * match. Stems of different parts of speech can still differ ("deliveri" / "deliv"); the index
 * matches those by prefix.
 */
export function englishStem(word: string): string {
  return STEM_EXCEPTIONS.get(word) ?? stemmer(word);
}
