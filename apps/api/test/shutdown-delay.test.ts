import { waitUntil } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { startApiProcess } from './support/api-process.js';
import { bodyFor, post, sign } from './support/test-api.js';

/**
 * SHUTDOWN_DELAY_MS (docs/kubernetes.md): an orchestrator sends SIGTERM and removes the pod's endpoint
 * at about the same time, so requests keep arriving for a moment. The API says at once that it is
 * going (readyz 503), serves what still comes for the delay, and only then closes its listener and drains.
 */
describe('API shutdown delay (SHUTDOWN_DELAY_MS)', function () {
  this.timeout(60_000);

  it('answers readyz 503 at once after SIGTERM while still serving requests for the delay, then drains and exits 0', async () => {
    const api = await startApiProcess({ SHUTDOWN_DELAY_MS: '8000', LOG_LEVEL: 'info' });
    const exited = new Promise<number | null>((resolve) => api.child.once('exit', (code) => resolve(code)));
    try {
      api.child.kill('SIGTERM');
      await waitUntil(() => api.output().includes('api draining'));
      const ready = await fetch(`${api.url}/readyz`);
      expect(ready.status).to.equal(503);
      expect(((await ready.json()) as { error: string }).error).to.equal('service_unavailable');
      // Alive, and still serving on new connections: the endpoint may not be removed everywhere yet.
      expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
      const answer = await post(api.url, sign(bodyFor('assist_dialog')));
      expect(answer.status, JSON.stringify(answer.json)).to.equal(200);
      expect(api.output()).to.not.include('api stopped');
      // Then the drain as without a delay: listener closed, process gone with 0.
      expect(await exited).to.equal(0);
      expect(api.output()).to.include('api stopped');
      expect(
        await fetch(`${api.url}/healthz`).then(
          (r) => r.status,
          () => 'refused',
        ),
      ).to.equal('refused');
    } finally {
      await api.stop();
    }
  });
});
