/**
 * What JSON.parse complained about, without any of the text it parsed: V8 quotes up to ten
 * characters around an unexpected token, which may be part of a secret (docs/service-rules.md §16).
 * Only its fixed grammar phrases and the position are kept; undefined when it gave neither.
 */
export function jsonParseFailureDetail(message: string): string | undefined {
  const at = /^([^"]{1,80}) in JSON at position (\d+)/.exec(message);
  if (at) return at[1]!.startsWith('Unexpected token') ? `Unexpected token at position ${at[2]}` : `${at[1]} at position ${at[2]}`;
  if (message.startsWith('Unexpected end of JSON input')) return 'The text ends before its JSON does.';
  return undefined;
}
