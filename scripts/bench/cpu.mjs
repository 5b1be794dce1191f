// CPU time from outside: a process's (user + system, from /proc/<pid>/stat, Linux) and Redis's own
// (INFO cpu). Each is read before and after a measured window; the difference is what the window cost.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

let ticksPerSecond;
const clockTicks = () => (ticksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100);

/** CPU time (µs) a process has used so far; null where /proc is not there (not Linux). */
export function processCpuUs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which is in parentheses and may hold spaces): utime is the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / clockTicks()) * 1e6;
  } catch {
    return null;
  }
}

/**
 * A process's main thread so far (µs): its time on a core, and its time ready to run but waiting for
 * one (another process had it), from /proc/<pid>/task/<pid>/schedstat; null where that is not there.
 * The API's and bare Express's requests/s follow their main thread's share of the wall clock: a
 * thread kept waiting by the processes it wakes (Redis, the load generator) answers fewer requests
 * for the same CPU per request.
 */
export function mainThreadUs(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? { run: run / 1e3, wait: wait / 1e3 } : null;
  } catch {
    return null;
  }
}

/** Redis's own CPU time (µs) so far, user + system of the server process, from INFO cpu. */
export async function redisCpuUs(redis) {
  const info = await redis.info('cpu');
  const field = (name) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
}

/** µs per unit between two readings, or null when either is missing. */
export const perUnit = (before, after, units) => (before === null || after === null || units <= 0 ? null : (after - before) / units);
