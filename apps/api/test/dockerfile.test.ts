import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

interface Stage {
  from: string;
  name: string | undefined;
  instructions: string[];
}

/** The Dockerfile's stages, each with its instructions (continuation lines joined, comments dropped). */
function stagesOf(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ from: from[1]!, name: from[2], instructions: [] });
    else stages.at(-1)?.instructions.push(line);
  }
  return stages;
}

/**
 * No Docker engine runs where the tests run: the image was never built here. These tests read the
 * Dockerfile and hold the shape of what ships: the runtime only, a HEALTHCHECK, OCI labels, Node 24.
 */
describe('Dockerfile (read, not built: no Docker engine here)', () => {
  const stages = stagesOf(read('Dockerfile'));
  const named = (name: string): Stage => {
    const stage = stages.find((s) => s.name === name);
    if (stage === undefined) throw new Error(`no stage ${name}`);
    return stage;
  };
  /** The stage and those it is built FROM, up to a base image. */
  const chain = (stage: Stage): Stage[] => {
    const parent = stages.find((s) => s.name === stage.from);
    return parent === undefined ? [stage] : [...chain(parent), stage];
  };
  const final = stages.at(-1)!;
  const shipped = [...new Set([...chain(final), ...chain(named('worker'))])];
  const assembly = named('build')
    .instructions.filter((i) => i.includes('/runtime'))
    .join('\n');

  it('ships targets api (the default, last) and worker, both on a runtime stage FROM node:24', () => {
    expect(final.name).to.equal('api');
    for (const target of [final, named('worker')]) expect(chain(target)[0]!.from).to.match(/^node:24[-.\w]*$/);
  });

  it('copies into the shipped stages only the runtime tree the build stage assembled', () => {
    const copies = shipped.flatMap((s) => s.instructions.filter((i) => /^(COPY|ADD)\b/i.test(i)));
    expect(copies).to.have.length.greaterThan(0);
    for (const copy of copies) expect(copy).to.match(/^COPY --from=build(?: --chown=\S+)? \/runtime \/app$/);
    for (const instruction of shipped.flatMap((s) => s.instructions))
      expect(instruction).not.to.match(/\btest\/|\bbench\/|\bsrc\/\S*\.ts\b|npm (ci|install)\b/);
  });

  it("assembles the runtime tree from manifests, dist/src, the reply engine's data files, the worker health script and pruned node_modules", () => {
    expect(named('build').instructions.join('\n')).to.match(/npm prune --omit=dev/);
    expect(assembly).to.include('dist/src').and.to.include('package.json').and.to.include('node_modules');
    expect(assembly)
      .to.include('packages/reply-engine/knowledge')
      .and.to.include('packages/reply-engine/lexicons')
      .and.to.include('scripts/worker-health.mjs');
    expect(assembly, 'no tests, bench or TypeScript sources').not.to.match(/dist\/test|\bbench\b|\btest\/|cp -R "?\$ws\/src|\.ts\b/);
    expect(assembly, 'the test-only workspaces are left out').to.include('packages/testkit|packages/knowledge-eval) continue');
  });

  it("has what the worker health script imports in the runtime tree (a workspace's dist/src, not a test-only one)", () => {
    const imports = [...read('scripts/worker-health.mjs').matchAll(/load\('([^']+)'\)/g)].map((m) => m[1]!);
    expect(imports).to.have.length.greaterThan(0);
    for (const path of imports) expect(path).to.match(/^(apps|packages)\/(?!testkit\/|knowledge-eval\/)[\w-]+\/dist\/src\//);
  });

  it("has a HEALTHCHECK per target: the API's /readyz, the worker's own heartbeat (scripts/worker-health.mjs 30)", () => {
    const healthOf = (stage: Stage): string => stage.instructions.find((i) => i.startsWith('HEALTHCHECK')) ?? '';
    expect(healthOf(final)).to.include('/readyz');
    expect(healthOf(named('worker'))).to.include('"node", "scripts/worker-health.mjs", "30"');
    expect(final.instructions.find((i) => i.startsWith('CMD'))).to.include('apps/api/dist/src/main.js');
    expect(named('worker').instructions.find((i) => i.startsWith('CMD'))).to.include('apps/worker/dist/src/main.js');
  });

  it("has the OCI labels (title, description, version, licenses=Apache-2.0, source), the version the root package.json's", () => {
    const runtime = chain(final)[0]!;
    const labels = runtime.instructions.filter((i) => i.startsWith('LABEL')).join(' ');
    for (const key of ['title', 'description', 'version', 'source'])
      expect(labels).to.match(new RegExp(`org\\.opencontainers\\.image\\.${key}="[^"]*"`));
    expect(labels).to.include('org.opencontainers.image.licenses="Apache-2.0"');
    const { version } = JSON.parse(read('package.json')) as { version: string };
    expect(runtime.instructions).to.include(`ARG VERSION=${version}`);
    expect(runtime.instructions).to.include('USER node');
  });

  it("is what docker-compose.yml builds: each service's target exists and runs what the runtime tree holds", () => {
    type Service = { build?: { context: string; target: string }; command?: string[]; healthcheck?: { test: string[] } };
    const services = (parse(read('docker-compose.yml')) as { services: Record<string, Service> }).services;
    const built = Object.entries(services).filter(([, service]) => service.build !== undefined);
    expect(built.map(([name]) => name).sort()).to.deep.equal(['api', 'api-cluster', 'worker', 'worker-cluster']);
    for (const [name, service] of built) {
      expect(service.build, name).to.deep.equal({ context: '.', target: name.startsWith('api') ? 'api' : 'worker' });
      const ran = [...(service.command ?? []), ...(service.healthcheck?.test ?? [])].join(' ');
      for (const file of ran.match(/(?:apps|scripts)\/[\w/.-]+\.m?js/g) ?? []) {
        expect(file === 'scripts/worker-health.mjs' || /^apps\/(api|worker|cli)\/dist\/src\//.test(file), `${name} runs ${file}`).to.equal(
          true,
        );
      }
    }
  });
});
