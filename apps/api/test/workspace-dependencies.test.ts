import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../../../', import.meta.url).pathname;

interface Workspace {
  name: string;
  dependencies: string[];
  /** The @dialog-relay workspaces it declares as runtime dependencies. */
  workspaceDependencies: string[];
  code: string;
}

const sourcesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });

function workspaces(): Workspace[] {
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(join(ROOT, group)).map((dir) => {
      const manifest = JSON.parse(readFileSync(join(ROOT, group, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      return {
        name: manifest.name,
        dependencies: Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith('@dialog-relay/')),
        workspaceDependencies: Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@dialog-relay/')),
        code: sourcesUnder(join(ROOT, group, dir, 'src')).join('\n'),
      };
    }),
  );
}

/** The section of a guide under its `## heading`, up to the next `## `. */
function sectionOf(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, 'docs', file), 'utf8');
  const start = text.indexOf(`\n## ${heading}`);
  if (start < 0) return '';
  const next = text.indexOf('\n## ', start + 1);
  return text.slice(start, next < 0 ? undefined : next);
}

/** The names in the first column of the runtime table in docs/dependencies.md (the one list of why each dependency is here). */
function listedRuntimeDependencies(): string[] {
  const lines = sectionOf('dependencies.md', 'Why each runtime dependency is here').split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  const table = first < 0 ? '' : lines.slice(first, end < 0 ? undefined : end).join('\n'); // the first table: the development-only one follows
  return [...table.matchAll(/^\| ([^|]+) \|/gm)]
    .map((row) => row[1] ?? '')
    .filter((cell) => !cell.startsWith('dev:') && cell !== 'package')
    .flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((name) => name[1] ?? ''));
}

/** A listed name covers a package: the same name, its name within its scope (`sdk-trace-node`), or `@scope/*`. */
const covers = (listed: string, dependency: string): boolean =>
  listed === dependency || dependency.endsWith(`/${listed}`) || (listed.endsWith('/*') && dependency.startsWith(listed.slice(0, -1)));

describe('workspace dependencies', () => {
  it('every runtime dependency a workspace declares is used by its code (imported or resolved)', () => {
    const unused = workspaces().flatMap(({ name, dependencies, code }) =>
      dependencies
        .filter((dependency) => !new RegExp(`'${dependency.replace(/[/.]/g, '\\$&')}(?:/[^']*)?'`).test(code))
        .map((dependency) => `${name}: ${dependency}`),
    );
    expect(unused).to.deep.equal([]);
  });

  it('every workspace declares exactly the workspaces its code imports', () => {
    const mismatched = workspaces().flatMap(({ name, workspaceDependencies, code }) => {
      const imported = [...new Set([...code.matchAll(/from '(@dialog-relay\/[a-z-]+)'/g)].map((m) => m[1] ?? ''))].filter(
        (dependency) => dependency !== name,
      );
      return [
        ...imported
          .filter((dependency) => !workspaceDependencies.includes(dependency))
          .map((dependency) => `${name} imports ${dependency} without declaring it`),
        ...workspaceDependencies
          .filter((dependency) => !imported.includes(dependency))
          .map((dependency) => `${name} declares ${dependency} and never imports it`),
      ];
    });
    expect(mismatched).to.deep.equal([]);
  });

  it('docs/dependencies.md "Why each runtime dependency is here" names every runtime dependency of every workspace, and none that no workspace has', () => {
    const listed = listedRuntimeDependencies();
    const declared = [...new Set(workspaces().flatMap((w) => w.dependencies))];
    expect(listed, 'the table in docs/dependencies.md').to.not.deep.equal([]);
    expect(
      declared.filter((dependency) => !listed.some((name) => covers(name, dependency))),
      'declared, not in docs/dependencies.md',
    ).to.deep.equal([]);
    expect(
      listed.filter((name) => !declared.some((dependency) => covers(name, dependency))),
      'in docs/dependencies.md, declared by no workspace',
    ).to.deep.equal([]);
  });

  it('the dependency table is written once: docs/development.md links to docs/dependencies.md instead of keeping its own', () => {
    const section = sectionOf('development.md', 'Dependencies and why');
    expect(section, 'docs/development.md "Dependencies and why"').to.include('(dependencies.md');
    expect(
      section.split('\n').filter((line) => line.startsWith('|')),
      'table rows left in docs/development.md',
    ).to.deep.equal([]);
  });
});
