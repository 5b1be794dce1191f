/**
 * Reads what `node --trace-gc-nvp` writes to stdout: one line a garbage collection,
 * "[pid:isolate:0]    10415 ms: pause=9.6 … gc=s … allocated=… promoted=…", the milliseconds since
 * the process started, then name=value pairs. A child that prints `measure-from=<ms since start>` after
 * its warm-up marks where the measured part begins; the scavenges (gc=s) after the mark are read.
 */
export type GcLine = Record<string, number>;

/** The mark line a measured child prints once its warm-up is over. */
export const measureFromLine = (): string => `measure-from=${performance.now().toFixed(0)}\n`;

/** The name=value pairs of each scavenge after the child's mark, as numbers (none when it printed no mark). */
export function scavengesAfterMark(stdout: string): GcLine[] {
  const from = Number(/measure-from=(\d+)/.exec(stdout)?.[1] ?? Infinity);
  return stdout
    .split('\n')
    .filter((line) => line.includes(' gc=s ') && Number(/\]\s+([\d.]+) ms:/.exec(line)?.[1] ?? 0) > from)
    .map((line) => {
      const fields: GcLine = {};
      for (const match of line.matchAll(/(\w+)=([\d.]+)/g)) fields[match[1] ?? ''] = Number(match[2]);
      return fields;
    });
}

/** The share of what was allocated that these scavenges promoted to the old generation (0 to 1). */
export function promotedShare(scavenges: GcLine[]): number {
  const sum = (name: string): number => scavenges.reduce((total, s) => total + (s[name] ?? 0), 0);
  return sum('promoted') / Math.max(1, sum('allocated'));
}

/** The median pause of these scavenges, in milliseconds (0 for none). */
export function medianPauseMs(scavenges: GcLine[]): number {
  const pauses = scavenges.map((s) => s.pause ?? 0).sort((a, b) => a - b);
  return pauses[Math.floor(pauses.length / 2)] ?? 0;
}
