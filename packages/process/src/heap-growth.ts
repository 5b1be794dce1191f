import { setFlagsFromString } from 'node:v8';

/**
 * Sets how far V8 lets the old generation grow past what survived the last full collection before it
 * collects again (HEAP_GROWING_PERCENT; V8's --heap-growing-percent). V8 reads the factor each time
 * it sets the next limit, so setting it at start-up holds for the whole process; 0 leaves V8's own
 * adaptive factor (up to 4× the live heap on a machine with memory to spare). The young generation
 * can only be sized by a start-up flag: NODE_OPTIONS (docs/design/performance.md, "Memory").
 */
export function applyHeapGrowth(percent: number, set: (flags: string) => void = setFlagsFromString): void {
  if (percent > 0) set(`--heap-growing-percent=${percent}`);
}
