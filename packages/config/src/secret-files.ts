import { readFileSync, statSync } from 'node:fs';
import { ConfigError, type Env } from './env-readers.js';

/**
 * The variables that may be given as a file instead (`<NAME>_FILE`: a path, the way Docker and
 * Kubernetes mount secrets). Both forms at once stop start-up (exit 78); a file that group or
 * others may read is accepted with a warning; the content is never quoted.
 */
export const SECRET_FILE_VARIABLES = [
  'CLIENTS',
  'ADMIN_TOKEN',
  'ADMIN_WRITE_TOKEN',
  'OPENAI_API_KEY',
  'EMBEDDINGS_API_KEY',
  'REDIS_PASSWORD',
] as const;

const given = (env: Env, name: string): boolean => (env[name]?.trim() ?? '') !== '';

/** One secret file's text, a trailing newline (or several, CRLF too) removed; refusals name the variable and the path only. */
function readSecretFile(variable: string, path: string, warnings: string[]): string {
  let text: string;
  try {
    const mode = statSync(path).mode;
    if ((mode & 0o077) !== 0) {
      warnings.push(
        `${variable}: ${path} may be read by group or others (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); chmod 600 it, or mount it with mode 0400 (Kubernetes: defaultMode)`,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ConfigError(variable, `cannot read ${path}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  const value = text.replace(/(?:\r?\n)+$/, '');
  if (value.trim() === '') throw new ConfigError(variable, `${path} is empty`);
  return value;
}

/**
 * The environment with every `<NAME>_FILE` read into `<NAME>`: the rest of the configuration reads
 * one variable whatever its form. Every other name is looked up in `env` itself.
 */
export function withSecretFiles(env: Env): { env: Env; warnings: readonly string[] } {
  const fromFiles: Record<string, string> = {};
  const warnings: string[] = [];
  for (const name of SECRET_FILE_VARIABLES) {
    const fileVariable = `${name}_FILE`;
    if (!given(env, fileVariable)) continue;
    if (given(env, name))
      throw new ConfigError(fileVariable, `${name} is set too; give the secret one way, in ${name} or in the file ${fileVariable} names`);
    fromFiles[name] = readSecretFile(fileVariable, (env[fileVariable] ?? '').trim(), warnings);
  }
  // The files' values are own properties; any other name is read from env (its prototype), so a
  // caller watching which variables are read still sees them.
  return { env: Object.assign(Object.create(env) as Record<string, string | undefined>, fromFiles), warnings };
}
