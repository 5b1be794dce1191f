import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The parent pid and state of a process from /proc/<pid>/stat (Linux), undefined once it is gone. */
function statOf(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
    const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state };
  } catch {
    return undefined;
  }
}

/** Every process descended from `pid` now (children, their children, …), as the kernel lists them. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat !== undefined) parents.set(Number(entry), stat.ppid);
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...parents].filter(([, parent]) => frontier.includes(parent)).map(([child]) => child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** A process that has exited (gone, or a zombie waiting to be reaped). */
export const gone = (pid: number): boolean => {
  const stat = statOf(pid);
  return stat === undefined || stat.state === 'Z';
};

/** The local addresses sockets listen on for `port`, as the kernel lists them (Linux /proc/net). */
export function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local = '', , state] = line.trim().split(/\s+/);
      const [address = '', localPort] = local.split(':');
      if (localPort === hexPort && state === '0A') found.push(address);
    }
  }
  return found;
}
