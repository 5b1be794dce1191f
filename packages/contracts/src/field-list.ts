/**
 * For each field of a wire shape: true when every answer carries it, false when it may be absent.
 * The compiler holds it to the interface: a field missing, extra, or with the wrong presence fails.
 */
export type FieldPresence<T> = { readonly [K in keyof T]-?: object extends Pick<T, K> ? false : true };

/** A wire shape's fields, in the order given, and the ones every answer carries. */
export interface FieldList<T> {
  readonly all: readonly (keyof T & string)[];
  readonly required: readonly (keyof T & string)[];
}

export function fieldList<T>(presence: FieldPresence<T>): FieldList<T> {
  const entries = Object.entries(presence) as [keyof T & string, boolean][];
  return Object.freeze({
    all: Object.freeze(entries.map(([field]) => field)),
    required: Object.freeze(entries.filter(([, always]) => always).map(([field]) => field)),
  });
}
