/**
 * A metric's child for one label set, bound on first use and kept: prom-client hashes the label
 * object (its keys sorted) on every inc or observe, which a hot path need not pay. The label values
 * must be bounded (routes, statuses, event types, outcomes), so the map is too.
 */
export function boundChildren<T>(bind: (key: string) => T): (key: string) => T {
  const children = new Map<string, T>();
  return (key) => {
    let child = children.get(key);
    if (child === undefined) children.set(key, (child = bind(key)));
    return child;
  };
}
