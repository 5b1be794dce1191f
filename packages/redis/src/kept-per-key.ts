/**
 * `make(a, b)` kept per `keyOf(a, b)`: made the first time a key is asked for, the same object after.
 * For a part or a script with settings per value (withSettings, a reach in a script's text): a plan
 * is found by its parts' identity and a script loaded by its SHA, so one made per call would compose
 * or load a script per call. The values are a store's few (modes, outcome words, an engine's reach).
 */
export function keptPerKey<A, T, B = void>(keyOf: (a: A, b: B) => string, make: (a: A, b: B) => T): (a: A, b: B) => T {
  const kept = new Map<string, T>();
  return (a, b) => {
    const key = keyOf(a, b);
    let made = kept.get(key);
    if (made === undefined) kept.set(key, (made = make(a, b)));
    return made;
  };
}
