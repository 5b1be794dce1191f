// Loaded with --import by scripts/bench/promoted-sites.mjs into the API and the worker: samples, through
// the process's own inspector, the allocations that outlive the scavenges (objects collected by minor
// collections are left out, those collected by a mark-compact kept; PROMOTED_ALL=1: all), from PROMOTED_DELAY_MS after
// start for PROMOTED_MS, and writes the sampling heap profile into PROMOTED_SITES_DIR.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, dirname, join } from 'node:path';

const dir = process.env.PROMOTED_SITES_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
  // apps/<name>/dist/src/main.js: the app's name labels the file
  const app = basename(dirname(dirname(dirname(process.argv[1] ?? 'unknown/x/x/x'))));
  await post('HeapProfiler.enable');
  setTimeout(
    async () => {
      await post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: process.env.PROMOTED_ALL === '1',
      });
      setTimeout(
        async () => {
          const { profile } = await post('HeapProfiler.stopSampling');
          writeFileSync(join(dir, `${app}-${process.pid}.heapprofile`), JSON.stringify(profile));
        },
        Number(process.env.PROMOTED_MS ?? 8000),
      ).unref();
    },
    Number(process.env.PROMOTED_DELAY_MS ?? 2500),
  ).unref();
}
