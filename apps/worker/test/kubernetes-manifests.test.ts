import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { apiDrainBoundMs, loadConfig, workerDrainBoundMs, type Config } from '@dialog-relay/config';
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { startInProcess, type InProcess } from './support/in-process.js';
import { exposedNames, namesIn } from './support/metric-names.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const BASE = join(ROOT, 'deploy', 'kubernetes');
const TOKEN = 'manifests-token-0123456789';

/** The models the manifests may use, by apiVersion and kind: anything else fails the test. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};
interface Probe {
  httpGet?: { path: string; port: string | number };
  exec?: { command: string[] };
}
interface Container {
  name: string;
  command: string[];
  ports?: { name: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { mountPath: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: { terminationGracePeriodSeconds: number; containers: Container[] };
}

/** Every YAML file under deploy/kubernetes, overlays included. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}
const documentsOf = (file: string): Manifest[] =>
  parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => {
    expect(doc.errors, `${file}: ${doc.errors.join('; ')}`).to.be.empty;
    return doc.toJS() as Manifest;
  });
const isKustomization = (file: string): boolean => /(^|\/)kustomization\.ya?ml$/.test(file);
const base = (file: string): Manifest[] => documentsOf(join(BASE, file));
const one = (kind: string, name: string): Manifest => {
  const found = yamlFiles(BASE)
    .filter((f) => !isKustomization(f) && !f.includes('/overlays/'))
    .flatMap(documentsOf)
    .filter((m) => m.kind === kind && m.metadata.name === name);
  expect(found, `${kind} ${name}`).to.have.length(1);
  return found[0]!;
};
const template = (deployment: Manifest): PodTemplate => (deployment.spec as { template: PodTemplate }).template;

/** The configuration a pod of these manifests starts with: the ConfigMap and the example Secret, as envFrom gives them. */
function podConfig(overlay?: string): Config {
  const configMap = base('configmap.yaml')[0]!;
  const patched = overlay === undefined ? {} : (documentsOf(join(BASE, 'overlays', overlay, `redis-${overlay}.yaml`))[0]!.data ?? {});
  return loadConfig({ ...configMap.data, ...patched, ...base('secret.example.yaml')[0]!.stringData });
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  it('are all valid objects of their kind (kubernetes-models, @kubernetes-models/keda)', () => {
    const manifests = yamlFiles(BASE).filter((file) => !isKustomization(file));
    expect(manifests.length).to.be.at.least(10);
    for (const file of manifests) {
      for (const doc of documentsOf(file)) {
        const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
        expect(Model, `${relative(ROOT, file)}: no model for ${doc.apiVersion} ${doc.kind}`).to.be.a('function');
        expect(() => new Model!(doc as never).validate(), relative(ROOT, file)).not.to.throw();
      }
    }
  });

  it('are tied together by kustomization.yaml: every base file listed (but the example Secret), every overlay built on the base', () => {
    const kustomization = base('kustomization.yaml')[0] as unknown as { resources: string[] };
    const files = readdirSync(BASE).filter((f) => /\.ya?ml$/.test(f) && !isKustomization(f) && f !== 'secret.example.yaml');
    expect([...kustomization.resources].sort()).to.deep.equal(files.sort());
    for (const overlay of ['sentinel', 'cluster']) {
      const k = documentsOf(join(BASE, 'overlays', overlay, 'kustomization.yaml'))[0] as unknown as {
        resources: string[];
        patches: { path: string }[];
      };
      expect(k.resources).to.deep.equal(['../..']);
      for (const patch of k.patches) expect(existsSync(join(BASE, 'overlays', overlay, patch.path)), patch.path).to.equal(true);
    }
  });

  it('choose the Redis mode by configuration: one Redis, Sentinel or Cluster, each accepted by the configuration', () => {
    expect(podConfig().redis.target.mode).to.equal('single');
    expect(podConfig('sentinel').redis.target.mode).to.equal('sentinel');
    expect(podConfig('cluster').redis.target.mode).to.equal('cluster');
  });

  it('point every selector, target and reference at what exists', () => {
    const api = one('Deployment', 'dialog-relay-api');
    const worker = one('Deployment', 'dialog-relay-worker');
    const labelsMatch = (selector: Record<string, string>, deployment: Manifest): boolean =>
      Object.entries(selector).every(([key, value]) => template(deployment).metadata.labels[key] === value);
    for (const deployment of [api, worker]) {
      expect(
        labelsMatch((deployment.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels, deployment),
      ).to.equal(true);
      for (const source of template(deployment).spec.containers[0]!.envFrom ?? []) {
        if (source.configMapRef) expect(source.configMapRef.name).to.equal(base('configmap.yaml')[0]!.metadata.name);
        if (source.secretRef) expect(source.secretRef.name).to.equal(base('secret.example.yaml')[0]!.metadata.name);
      }
    }
    expect(labelsMatch((one('Service', 'dialog-relay-api').spec as { selector: Record<string, string> }).selector, api)).to.equal(true);
    expect(
      labelsMatch(
        (one('PodDisruptionBudget', 'dialog-relay-api').spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
        api,
      ),
    ).to.equal(true);
    expect(
      labelsMatch(
        (one('PodDisruptionBudget', 'dialog-relay-worker').spec as { selector: { matchLabels: Record<string, string> } }).selector
          .matchLabels,
        worker,
      ),
    ).to.equal(true);
    expect((one('HorizontalPodAutoscaler', 'dialog-relay-api').spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name).to.equal(
      api.metadata.name,
    );
    expect((one('ScaledObject', 'dialog-relay-worker').spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name).to.equal(
      worker.metadata.name,
    );
    const servicePort = (one('Service', 'dialog-relay-api').spec as { ports: { targetPort: string }[] }).ports[0]!.targetPort;
    expect(template(api).spec.containers[0]!.ports?.map((p) => p.name)).to.include(servicePort);
  });

  it('give each pod a grace period beyond its drain bound, derived from the configuration (SHUTDOWN_DELAY_MS 5000)', () => {
    const config = podConfig();
    expect(config.shutdownDelayMs).to.equal(5000);
    const api = template(one('Deployment', 'dialog-relay-api')).spec.terminationGracePeriodSeconds * 1000;
    const worker = template(one('Deployment', 'dialog-relay-worker')).spec.terminationGracePeriodSeconds * 1000;
    expect(api, 'API grace period').to.be.above(apiDrainBoundMs(config));
    expect(worker, 'worker grace period').to.be.above(workerDrainBoundMs(config));
  });

  it('run the commands and the health script the image holds, and point the worker probes at the heartbeat the configuration writes', () => {
    const config = podConfig();
    const api = template(one('Deployment', 'dialog-relay-api')).spec.containers[0]!;
    const worker = template(one('Deployment', 'dialog-relay-worker')).spec.containers[0]!;
    for (const container of [api, worker])
      expect(
        existsSync(join(ROOT, container.command[1]!.replace('/dist/src/', '/src/').replace(/\.js$/, '.ts'))),
        container.command.join(' '),
      ).to.equal(true);
    expect(api.ports?.find((p) => p.name === 'http')?.containerPort).to.equal(config.port);
    expect(worker.ports?.find((p) => p.name === 'metrics')?.containerPort).to.equal(config.metricsPort);
    const liveness = worker.livenessProbe?.exec?.command ?? [];
    const readiness = worker.readinessProbe?.exec?.command ?? [];
    expect(liveness.slice(0, 2)).to.deep.equal(['node', 'scripts/worker-health.mjs']);
    expect(liveness, 'liveness never asks Redis').not.to.include('--ready');
    expect(readiness.slice(0, 3)).to.deep.equal(['node', 'scripts/worker-health.mjs', '--ready']);
    expect(existsSync(join(ROOT, 'scripts', 'worker-health.mjs'))).to.equal(true);
    // The heartbeat is written where the pod may write (a read-only root file system), and often enough for the age checked.
    const heartbeat = config.workerHeartbeat;
    expect(heartbeat.file).to.be.a('string');
    expect(
      worker.volumeMounts?.some((m) => heartbeat.file!.startsWith(`${m.mountPath}/`)),
      heartbeat.file,
    ).to.equal(true);
    expect(Number(liveness.at(-1)) * 1000).to.be.at.least(3 * heartbeat.intervalMs);
  });

  describe('against the running API and worker', () => {
    let system: InProcess;
    before(async () => {
      system = await startInProcess('manifests', { HOST: '127.0.0.1', METRICS_PORT: '0', ADMIN_TOKEN: TOKEN });
    });
    after(async () => {
      await system.close();
    });

    it('probe paths the API serves: readiness 200 while ready, startup and liveness 200', async () => {
      const api = template(one('Deployment', 'dialog-relay-api')).spec.containers[0]!;
      for (const probe of [api.startupProbe, api.readinessProbe, api.livenessProbe]) {
        expect(probe?.httpGet?.port).to.equal('http');
        expect((await fetch(`${system.apiUrl}${probe!.httpGet!.path}`)).status, probe!.httpGet!.path).to.equal(200);
      }
      expect(api.readinessProbe?.httpGet?.path).to.equal('/readyz');
    });

    it('scale workers on queries that name only metrics /metrics exposes, never the delayed jobs', async () => {
      const scrape = async (url: string): Promise<Set<string>> =>
        exposedNames(await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text());
      const exposed = new Set([...(await scrape(`${system.apiUrl}/metrics`)), ...(await scrape(system.worker.metricsUrl!))]);
      const triggers = (
        one('ScaledObject', 'dialog-relay-worker').spec as {
          triggers: { type: string; name: string; metadata: { query: string; threshold: string } }[];
        }
      ).triggers;
      expect(triggers.map((t) => t.type)).to.deep.equal(['prometheus', 'prometheus']);
      const named = triggers.flatMap((t) => namesIn(t.metadata.query));
      for (const trigger of triggers) {
        expect(namesIn(trigger.metadata.query), trigger.name).not.to.be.empty;
        for (const name of namesIn(trigger.metadata.query))
          expect(exposed.has(name), `trigger ${trigger.name} names ${name}, which /metrics does not expose`).to.equal(true);
        expect(Number(trigger.metadata.threshold), trigger.name).to.be.above(0);
        expect(trigger.metadata.query, trigger.name).not.to.include('delayed');
      }
      expect(named).to.include.members(['dialog_relay_queue_due_jobs', 'dialog_relay_oldest_waiting_reply_age_seconds']);
    });
  });
});
