import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const majorOf = (version: string): number => Number(/^v?(\d+)/.exec(version)?.[1] ?? Number.NaN);

interface NodeRuntime {
  SHIPPED_MAJOR: number;
  OLDEST_SUPPORTED_MAJOR: number;
  accepts: (need: 'shipped' | 'supported', version: string) => boolean;
  SERVICE_NODE_OPTIONS: string;
  withServiceNodeOptions: (env: Record<string, string | undefined>) => Record<string, string | undefined>;
}
const runtime = async (): Promise<NodeRuntime> => (await import(pathToFileURL(join(ROOT, 'scripts/node-runtime.mjs')).href)) as NodeRuntime;

describe('the Node runtime', () => {
  it("is one version everywhere: the image's stages, the tests, @types/node; engines name the oldest supported", async () => {
    const { SHIPPED_MAJOR, OLDEST_SUPPORTED_MAJOR } = await runtime();
    const stages = [...read('Dockerfile').matchAll(/^FROM\s+node:(\d+)[-\w.]*/gm)].map((match) => Number(match[1]));
    expect(stages).to.have.length(2);
    expect(stages).to.deep.equal([SHIPPED_MAJOR, SHIPPED_MAJOR]);
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; devDependencies: Record<string, string> };
    expect(pkg.engines.node).to.equal(`>=${OLDEST_SUPPORTED_MAJOR}`);
    expect(majorOf((pkg.devDependencies['@types/node'] ?? '').replace(/^\^|~/, ''))).to.equal(SHIPPED_MAJOR);
  });

  it('runs these tests on Node 24, the runtime the image ships, and programs they start as `node` too (npm test re-runs itself on it)', async () => {
    const { SHIPPED_MAJOR } = await runtime();
    const hint = 'run the tests with npm test, which re-runs itself on Node 24 whatever Node started it';
    expect(majorOf(process.version), `this process runs on ${process.version}: ${hint}`).to.equal(SHIPPED_MAJOR);
    const onPath = spawnSync('node', ['--version'], { encoding: 'utf8' });
    expect(majorOf(onPath.stdout.trim()), `\`node\` on PATH is ${onPath.stdout.trim()}: ${hint}`).to.equal(SHIPPED_MAJOR);
  });

  it('npm test asks for Node 24 exactly; npm start for 22 or newer', async () => {
    const { accepts } = await runtime();
    expect(['v20.20.2', 'v22.12.0', 'v24.0.0', 'v24.21.0', 'v26.1.0'].filter((v) => accepts('shipped', v))).to.deep.equal([
      'v24.0.0',
      'v24.21.0',
    ]);
    expect(['v20.20.2', 'v21.7.3', 'v22.0.0', 'v24.21.0', 'v26.1.0'].filter((v) => accepts('supported', v))).to.deep.equal([
      'v22.0.0',
      'v24.21.0',
      'v26.1.0',
    ]);
  });

  it('starts the API and the worker with the same V8 flags wherever the project starts them: the image, npm run start:api / start:worker, npm start and the bench', async () => {
    const { SERVICE_NODE_OPTIONS, withServiceNodeOptions } = await runtime();
    expect(SERVICE_NODE_OPTIONS).to.match(/^--max-semi-space-size=\d+$/);
    const runtimeStage = read('Dockerfile')
      .split(/^FROM /m)
      .find((stage) => stage.startsWith('node:') && / AS runtime/.test(stage.split('\n')[0] ?? ''));
    expect(runtimeStage, 'the runtime stage').to.match(new RegExp(`^ENV .*NODE_OPTIONS=${SERVICE_NODE_OPTIONS}(\\s|$)`, 'm'));
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const program of ['api', 'worker'])
      expect(scripts[`start:${program}`]).to.contain(`exec node ${SERVICE_NODE_OPTIONS} scripts/run-service.mjs ${program}`);
    expect(read('scripts/start.mjs')).to.contain('withServiceNodeOptions(env)');
    expect(read('scripts/bench/processes.mjs')).to.contain('return withServiceNodeOptions(env);');
    // Added to what NODE_OPTIONS holds; an operator's own semi-space size wins.
    expect(withServiceNodeOptions({}).NODE_OPTIONS).to.equal(SERVICE_NODE_OPTIONS);
    expect(withServiceNodeOptions({ NODE_OPTIONS: '--enable-source-maps' }).NODE_OPTIONS).to.equal(
      `--enable-source-maps ${SERVICE_NODE_OPTIONS}`,
    );
    expect(withServiceNodeOptions({ NODE_OPTIONS: '--max-semi-space-size=64' }).NODE_OPTIONS).to.equal('--max-semi-space-size=64');
  });
});
