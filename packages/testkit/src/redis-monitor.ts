import { connect, type Socket } from 'node:net';

/** One command as Redis's MONITOR shows it. */
export interface MonitorLine {
  /** The server's time, as sent ("1700000000.123456"). */
  readonly time: string;
  /** The sending connection's address ("127.0.0.1:54321"), or "lua" for a command a script ran. */
  readonly source: string;
  /** The command and its arguments, unescaped. */
  readonly args: readonly string[];
}

export interface RedisMonitor {
  close(): void;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b', '\\': '\\', '"': '"' };

/** The quoted arguments of a MONITOR line, as Redis's `sdscatrepr` escaped them. */
export function monitorArgs(quoted: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < quoted.length) {
    if (quoted[i] !== '"') {
      i += 1;
      continue;
    }
    let arg = '';
    i += 1;
    while (i < quoted.length && quoted[i] !== '"') {
      if (quoted[i] === '\\' && i + 1 < quoted.length) {
        const next = quoted[i + 1]!;
        if (next === 'x') {
          arg += String.fromCharCode(Number.parseInt(quoted.slice(i + 2, i + 4), 16));
          i += 4;
        } else {
          arg += ESCAPES[next] ?? next;
          i += 2;
        }
      } else {
        arg += quoted[i];
        i += 1;
      }
    }
    args.push(arg);
    i += 1;
  }
  return args;
}

const respCommand = (args: readonly string[]): string =>
  `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;

/** "+<time> [<db> <source>] <args>": the parts of one MONITOR line, or undefined for anything else. */
export function parseMonitorLine(line: string): MonitorLine | undefined {
  const match = /^\+(\d+\.\d+) \[\d+ ([^\]]+)\] (.*)$/s.exec(line);
  if (!match) return undefined;
  return { time: match[1]!, source: match[2]!, args: monitorArgs(match[3]!) };
}

/**
 * MONITOR on a Redis the test started, over a plain socket. A client library's MONITOR can race
 * (ioredis: a command line arriving in the same read as MONITOR's OK fails its command queue with
 * "Command queue state error"); here every line after the OK is a command, whatever reads it came in.
 * `url` is redis://[:password@]host:port; `onCommand` gets every command Redis ran after MONITOR's OK.
 */
export async function monitorRedis(url: string, onCommand: (line: MonitorLine) => void): Promise<RedisMonitor> {
  const parsed = new URL(url);
  const socket: Socket = connect({ host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 6379) });
  socket.setEncoding('latin1');
  const password = decodeURIComponent(parsed.password);
  let expectedOks = password ? 2 : 1;
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error): void => reject(error);
    socket.once('error', failed);
    socket.once('connect', () => {
      socket.write(`${password ? respCommand(['AUTH', password]) : ''}${respCommand(['MONITOR'])}`);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (expectedOks > 0) {
          if (line !== '+OK') {
            reject(new Error(`MONITOR refused: ${line}`));
            socket.destroy();
            return;
          }
          expectedOks -= 1;
          if (expectedOks === 0) {
            socket.off('error', failed);
            socket.on('error', () => undefined);
            resolve();
          }
          continue;
        }
        const command = parseMonitorLine(line);
        if (command) onCommand(command);
      }
    });
  });
  return { close: () => socket.destroy() };
}
