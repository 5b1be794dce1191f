import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { loadConfig, type Env } from '../src/index.js';

/** The operators' guide holds the configuration table (section "Configuration", up to the next section). */
const GUIDE = readFileSync(new URL('../../../../docs/operating.md', import.meta.url), 'utf8');
const CONFIGURATION = GUIDE.slice(GUIDE.indexOf('\n## Configuration'), GUIDE.indexOf('\n## ', GUIDE.indexOf('\n## Configuration') + 1));

/** Environments that between them make loadConfig read every variable (some are read only in one mode). */
const BASES: Env[] = [
  {},
  { REPLY_ENGINE: 'openai', OPENAI_API_KEY: 'k' },
  { EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1' },
  { REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'relay' },
];

/** Every variable loadConfig reads, with an environment in which it reads it. */
function variablesRead(): Map<string, Env> {
  const read = new Map<string, Env>();
  for (const base of BASES) {
    loadConfig(
      new Proxy(base, {
        get(target, name) {
          if (typeof name === 'string' && !read.has(name)) read.set(name, base);
          return typeof name === 'string' ? target[name] : undefined;
        },
      }),
    );
  }
  return read;
}

const refusal = (env: Env): string => {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('configuration table (docs/operating.md)', () => {
  const read = variablesRead();

  it('documents every variable the configuration reads, and none it does not read', () => {
    const documented = new Set(
      [...CONFIGURATION.matchAll(/^\| (`[A-Z][A-Z0-9_]+`(?: \/ `[A-Z][A-Z0-9_]+`)*) \|/gm)].flatMap((row) =>
        [...(row[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((name) => name[1] ?? ''),
      ),
    );
    expect(
      [...read.keys()].filter((name) => !documented.has(name)),
      'read but not in the table',
    ).to.deep.equal([]);
    expect(
      [...documented].filter((name) => !read.has(name)),
      'in the table but never read',
    ).to.deep.equal([]);
  });

  it('states the bounds of every whole-number variable as the configuration enforces them', () => {
    const stated = new Map(
      [...CONFIGURATION.matchAll(/`([A-Z][A-Z0-9_]+)`\s+(\d+)–(\d+)/g)].map((m) => [m[1] ?? '', `${m[2] ?? ''}–${m[3] ?? ''}`]),
    );
    const enforced = new Map<string, string>();
    for (const [name, base] of read) {
      if (!/expected an integer/.test(refusal({ ...base, [name]: 'x' }))) continue;
      const bounds = /must be between (\d+) and (\d+)/.exec(refusal({ ...base, [name]: '-99999999999' }));
      enforced.set(name, `${bounds?.[1] ?? '?'}–${bounds?.[2] ?? '?'}`);
    }
    expect(enforced.size).to.be.greaterThan(30);
    expect(Object.fromEntries(stated)).to.deep.equal(Object.fromEntries(enforced));
  });
});
