import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const FILE = join(ROOT, 'docker-compose.yml');

interface Service {
  ports?: string[];
  restart?: string;
  healthcheck?: { test: string[] | string };
  environment?: Record<string, string>;
}

/** The Compose commands installed here: v2 (`docker compose`) and/or v1 (`docker-compose`). */
function composeCommands(): string[][] {
  const found: string[][] = [];
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) found.push(['docker', 'compose']);
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) found.push(['docker-compose']);
  return found;
}

describe('docker-compose.yml', () => {
  const text = readFileSync(FILE, 'utf8');
  const services = (parse(text) as { services: Record<string, Service> }).services;

  it('has no default value with braces or quotes inside ${…:-…}, which Compose v1 cannot read', () => {
    expect(text).to.not.match(/\$\{[A-Za-z_]+:?-[^}]*[{"]/);
  });

  it('restarts every long-running service unless stopped (the one-shot cluster-init runs once)', () => {
    for (const [name, service] of Object.entries(services))
      expect(service.restart, name).to.equal(name === 'cluster-init' ? undefined : 'unless-stopped');
  });

  it('has a cluster profile: three cluster-enabled masters and the API and worker on REDIS_CLUSTER_NODES only', () => {
    const cluster = Object.entries(services)
      .filter(([, service]) => (service as { profiles?: string[] }).profiles?.includes('cluster'))
      .map(([name]) => name)
      .sort();
    expect(cluster).to.deep.equal(['api-cluster', 'cluster-init', 'redis-node-1', 'redis-node-2', 'redis-node-3', 'worker-cluster']);
    for (const node of ['redis-node-1', 'redis-node-2', 'redis-node-3'])
      expect(JSON.stringify((services[node] as { command?: unknown } | undefined)?.command)).to.include('--cluster-enabled');
    const env = (services['api-cluster'] as { environment?: Record<string, string> }).environment ?? {};
    expect(env['REDIS_CLUSTER_NODES']).to.equal('redis-node-1:6379,redis-node-2:6379,redis-node-3:6379');
    expect(env['REDIS_URL']).to.equal('');
  });

  it('checks the health of the api on /readyz and of the worker', () => {
    expect(JSON.stringify(services['api']?.healthcheck?.test)).to.include('/readyz');
    expect(services['worker']?.healthcheck?.test, 'worker liveness check').to.not.equal(undefined);
  });

  it("checks a worker's liveness by the age of the heartbeat file it is told to write", () => {
    for (const name of ['worker', 'worker-cluster']) {
      const worker = services[name];
      expect(worker?.healthcheck?.test, name).to.deep.equal(['CMD', 'node', 'scripts/worker-health.mjs', '30']);
      expect(worker?.environment?.['WORKER_HEARTBEAT_FILE'], name).to.match(/^\/tmp\//);
    }
  });

  it('publishes ports on 127.0.0.1 only by default', () => {
    const ports = Object.values(services).flatMap((service) => service.ports ?? []);
    expect(ports).to.not.have.length(0);
    for (const port of ports) expect(port).to.match(/^\$\{[A-Z_]+:-127\.0\.0\.1\}:|^127\.0\.0\.1:/);
  });

  it('is read by every installed Compose (v1 and v2) with CLIENTS passed through unchanged', () => {
    for (const command of composeCommands()) {
      for (const clients of [undefined, '{"acme":{"secret":"acme-secret-0123456789"}}']) {
        const env = { ...process.env, ...(clients === undefined ? {} : { CLIENTS: clients }) };
        if (clients === undefined) delete env['CLIENTS'];
        const [bin = 'docker', ...args] = command;
        const result = spawnSync(bin, [...args, '-f', FILE, 'config'], { env, encoding: 'utf8' });
        expect(result.status, `${command.join(' ')} config: ${result.stderr}`).to.equal(0);
        const resolved = (parse(result.stdout) as { services: Record<string, Service> }).services;
        for (const name of ['api', 'worker']) {
          expect(resolved[name]?.environment?.['CLIENTS'] ?? '', `${command.join(' ')}: ${name} CLIENTS`).to.equal(clients ?? '');
        }
      }
    }
  });
});
