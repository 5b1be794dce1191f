import { UsageError } from './output.js';

/** Reads stdin: its first line (without the line break), or all of it. */
export async function readStdin(stdin: NodeJS.ReadableStream, firstLineOnly: boolean): Promise<string> {
  let text = '';
  stdin.setEncoding('utf8');
  for await (const chunk of stdin) {
    text += String(chunk);
    if (firstLineOnly && text.includes('\n')) break;
  }
  return firstLineOnly ? (text.split('\n')[0] ?? '').replace(/\r$/, '') : text.trim();
}

export interface SecretSources {
  /** The option's name, for messages (e.g. --secret). */
  option: string;
  /** The value given as an argument. */
  argument: string | undefined;
  /** The stdin flag was given (e.g. --secret-stdin). */
  fromStdin: boolean;
  stdinOption: string;
  /** The environment variable's name, and the environment. */
  envName: string;
  env: NodeJS.ProcessEnv;
  /** Reads stdin (the first line, or all of it). */
  read: () => Promise<string>;
}

/**
 * A secret from the argument, stdin or the environment, in that order of choice; the argument and
 * stdin together are a usage error. Undefined when none is given, or stdin or the variable is empty.
 */
export async function resolveSecret(sources: SecretSources): Promise<string | undefined> {
  if (sources.fromStdin && sources.argument !== undefined)
    throw new UsageError(`give ${sources.option} or ${sources.stdinOption}, not both`);
  if (sources.argument !== undefined) return sources.argument;
  if (sources.fromStdin) return (await sources.read()) || undefined;
  return sources.env[sources.envName] || undefined;
}
