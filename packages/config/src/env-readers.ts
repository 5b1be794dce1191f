/** Small readers for environment values; each throws ConfigError naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

const present = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

export function readString(env: Env, name: string, fallback: string): string {
  return present(env, name) ?? fallback;
}

export function readOptionalString(env: Env, name: string): string | undefined {
  return present(env, name);
}

/** A credential (ADMIN_TOKEN …): at least `minChars` characters when set, so it cannot be guessed; never quoted in the error. */
export function readOptionalToken(env: Env, name: string, minChars: number): string | undefined {
  const value = present(env, name);
  if (value !== undefined && [...value].length < minChars)
    throw new ConfigError(name, `must be at least ${minChars} characters (it has ${[...value].length})`);
  return value;
}

export function readInt(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = present(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** A URL may hold a password or a key (redis://:password@host): a refusal names the problem, never the value. */
export function readUrl(env: Env, name: string, fallback: string, protocols: readonly string[]): string {
  const raw = present(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL (the value is not shown: it may hold a password)');
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  return raw;
}
