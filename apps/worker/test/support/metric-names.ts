/** Series Prometheus itself provides for every scrape target. */
export const PROMETHEUS_SERIES = new Set(['up']);

/** Every series name a scrape can show: counters and gauges as typed, histograms with _bucket, _sum and _count. */
export function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, type] = match as unknown as [string, string, string];
    if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    names.add(name);
  }
  return names;
}

/** The metric names a PromQL expression uses (ours start with dialog_relay_; `up` is Prometheus's own). */
export const namesIn = (expr: string): string[] => [...expr.matchAll(/\b(dialog_relay_[a-z0-9_]+|up)\b(?!\s*\()/g)].map((m) => m[1]!);
