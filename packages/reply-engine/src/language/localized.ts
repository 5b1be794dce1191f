import type { ReplyPart } from '@dialog-relay/contracts';

/** Reply parts by language code; a knowledge file's plain answer is stored under its default language. */
export type Localized = Readonly<Record<string, readonly ReplyPart[]>>;

/** The parts for `language`, else for `defaultLanguage`, else the first language given. */
export function pickLocalized(localized: Localized, language: string | undefined, defaultLanguage: string): readonly ReplyPart[] {
  if (language !== undefined) {
    const exact = localized[language];
    if (exact) return exact;
  }
  return localized[defaultLanguage] ?? Object.values(localized)[0] ?? [];
}
