// What a process allocates, read from its `--trace-gc` lines on its stdout: every collection prints
// "<ms since start> ms: <kind> <before> (<committed>) -> <after> (<committed>) MB". Between two
// collections the heap grows by exactly what was allocated, so the heap before a collection less
// the heap after the previous one is the allocation between them: summed over the collections of a
// window and divided by the time they span, it is the allocation rate, whatever the moment each
// collection happened to run (counting only what the collections freed is off by up to a young
// generation, 2 x 64 MiB on Node 24, per window).

const GC_LINE = /(\d+) ms: (?:Scavenge|Mark-Compact|Minor Mark-Compact|Mark-Sweep)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;

/** Reads the collections of `child` (run with --trace-gc, stdout piped). */
export function traceGc(child) {
  /** @type {{ ms: number, before: number, after: number }[]} */
  const collections = [];
  let rest = '';
  child.stdout.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const gc = GC_LINE.exec(line);
      if (gc) collections.push({ ms: Number(gc[1]), before: Number(gc[2]), after: Number(gc[3]) });
    }
  });
  return {
    /** A mark: allocationSince(mark) covers the collections after it. */
    mark: () => collections.length,
    /** MiB allocated per second over the collections since `mark` (null with fewer than two). */
    allocationSince(mark) {
      const window = collections.slice(Math.max(0, mark - 1));
      if (window.length < 2) return null;
      let allocated = 0;
      for (let i = 1; i < window.length; i++) allocated += Math.max(0, window[i].before - window[i - 1].after);
      const ms = window[window.length - 1].ms - window[0].ms;
      return ms > 0 ? (allocated * 1000) / ms : null;
    },
  };
}

/** KiB per request from an allocation rate (MiB/s) and a request rate (requests/s). */
export const kibPerRequest = (mibPerSecond, requestsPerSecond) =>
  mibPerSecond === null || !(requestsPerSecond > 0) ? Number.NaN : (mibPerSecond * 1024) / requestsPerSecond;
