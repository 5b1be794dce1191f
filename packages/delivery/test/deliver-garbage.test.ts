import { expect } from 'chai';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promotedShare, runProcess, scavengesAfterMark } from '@dialog-relay/testkit';

const PACED = join(dirname(fileURLToPath(import.meta.url)), 'support', 'paced-deliveries.js');

/** The share of what the child allocated that its scavenges promoted, after its warm-up. */
async function promotedShareOf(env: Record<string, string>): Promise<{ share: number; scavenges: number }> {
  const run = await runProcess(process.execPath, ['--trace-gc-nvp', PACED], {
    env: { ...process.env, SECONDS: '3', WARM_UP_SECONDS: '1.5', ...env },
  });
  expect(run.code, run.stderr).to.equal(0);
  const scavenges = scavengesAfterMark(run.stdout);
  return { share: promotedShare(scavenges), scavenges: scavenges.length };
}

/**
 * An attempt's objects must die young. Node 24's WritableState assigns its onwrite arrow to a
 * property, which V8 allocates in the old generation, so every Duplex (a got request is one) stays
 * reachable from an old object until a full collection and is promoted with all it references: the
 * worker's scavenges then pause for 10-17 ms (docs/design/performance-log.md, thirteenth session).
 * The deliverer posts through node:http, whose requests and answers are no Writable.
 */
describe('deliver: an attempt leaves nothing for the old generation', function () {
  this.timeout(60_000);

  it('promotes under 3 % of what paced attempts allocate (got streams, the probe of the measure: over 6 %)', async () => {
    const deliverer = await promotedShareOf({});
    const got = await promotedShareOf({ CLIENT: 'got' });
    expect(got.scavenges, 'scavenges measured').to.be.greaterThan(2);
    expect(got.share, 'got streams are promoted (the measure sees it)').to.be.greaterThan(0.06);
    expect(deliverer.scavenges, 'scavenges measured').to.be.greaterThan(2);
    expect(deliverer.share, 'promoted share of the deliverer').to.be.lessThan(0.03);
  });
});
