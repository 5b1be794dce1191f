import { expect } from 'chai';
import { startApiProcess, type ApiProcess } from './support/api-process.js';
import { bodyFor } from './support/test-api.js';

/**
 * docs/service-rules.md §16: the 401 detail of a bad signature costs little whatever the body holds. The API runs
 * in a process of its own here, so a handler that blocked its event loop would keep the second
 * request below from being answered (and the test would run out of time).
 */
describe('401 detail of a hostile body', () => {
  let api: ApiProcess;
  before(async function () {
    this.timeout(60_000);
    // A body limit above the default, so that a cost growing with the body times the secret members shows plainly.
    api = await startApiProcess({ BODY_LIMIT_BYTES: String(20 * 1024 * 1024) });
  });
  after(() => api.stop());

  it('answers /healthz on another connection right after a 16 MB body with 4,900 secret members and a bad signature', async () => {
    const members = Array.from({ length: 4_900 }, (_, i) => ({ secret: `s${i}` }));
    const body = JSON.stringify({ ...bodyFor('website_dialog', { extra: members }), pad: 'x'.repeat(16_000_000), signature: 'bad' });
    expect(body.length).to.be.above(16_000_000);
    const hostile = fetch(`${api.url}/custom-im/chat-messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const health = fetch(`${api.url}/healthz`, { headers: { connection: 'close' } });
    const [refused, alive] = await Promise.all([hostile, health]);
    expect(alive.status).to.equal(200);
    expect(refused.status).to.equal(401);
    const detail = ((await refused.json()) as { detail: string }).detail;
    expect(detail).to.include('"secret":"{secret}"');
    expect(detail).to.not.match(/"secret":"s\d+"/);
  });
});
