import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './output.js';

/** node:util's parseArgs, its errors (unknown option, missing value, stray positional) made usage errors (exit 2). */
export function parseArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseNodeArgs<T>> {
  try {
    return parseNodeArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message, { showUsage: true });
    throw error;
  }
}

/** A whole-number option within [min, max]; anything else is a usage error naming the option. */
export function integerOption(name: string, raw: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(
      max === Number.MAX_SAFE_INTEGER
        ? `${name} must be a whole number from ${min}`
        : `${name} must be a whole number from ${min} to ${max}`,
    );
  }
  return value;
}

/** `--help`, `-h` anywhere, or `help` as the command: the usage is asked for (printed on stdout, exit 0). */
export const asksForHelp = (argv: readonly string[]): boolean => argv[0] === 'help' || argv.some((arg) => arg === '--help' || arg === '-h');
