import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'main.js');

export interface CliRun {
  child: ChildProcess;
  /** Resolves with the next stdout line (for commands that keep running, such as listen). */
  nextLine(): Promise<string>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts the CLI as a separate process, as a script would run it; `input`, when given, is written to its stdin (then closed). */
export function startCli(args: string[], env: Record<string, string> = {}, input?: string): CliRun {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  let consumed = 0;
  const waiting: (() => void)[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    waiting.splice(0).forEach((wake) => wake());
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  const nextLine = async (): Promise<string> => {
    for (;;) {
      const end = stdout.indexOf('\n', consumed);
      if (end >= 0) {
        const line = stdout.slice(consumed, end);
        consumed = end + 1;
        return line;
      }
      if (child.exitCode !== null) throw new Error(`the CLI exited (${child.exitCode}) before printing a line: ${stderr}`);
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  return { child, nextLine, done };
}

export const runCli = (args: string[], env: Record<string, string> = {}, input?: string): CliRun['done'] => startCli(args, env, input).done;

export const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
