import { expect } from 'chai';
import { processTurn, statusClassOf } from './internals.js';
import { CONVERSATION, outcome, SETTINGS, T0, type Harness } from './harness.js';
import { recordMetrics } from './support/metrics-recorder.js';
import { harnessPerTest } from './support/suite-hooks.js';

describe('reply metrics port (what the worker reports to operators)', () => {
  let h: Harness;
  let calls: unknown[][];
  harnessPerTest('reply-metrics-test', (harness) => (h = harness));
  beforeEach(() => {
    const r = recordMetrics();
    calls = r.calls;
    h.deps.metrics = r.metrics;
  });
  const turn = () => processTurn(h.deps, { conversationId: CONVERSATION, generation: 0 });

  it('reports the engine call, the attempt by result and status class, the accept-to-delivered time and the turn', async () => {
    await h.receive('a', { receivedAtMs: T0 - 4000 });
    await turn();
    expect(calls).to.deep.equal([
      ['engine', 'reply', 0],
      ['attempt', 'delivered', '2xx', 0.012],
      ['delivered', 4],
      ['turn', 'finished', 0],
    ]);
  });

  it('reports a retry with its status class and a turn left waiting', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.retry(503));
    await turn();
    expect(calls).to.deep.include.members([
      ['attempt', 'retry', '5xx', 0.02],
      ['turn', 'waiting', 0],
    ]);
  });

  it('reports a dead letter with its reason', async () => {
    await h.receive('a');
    h.deliverer.answer(outcome.permanent(410));
    await turn();
    expect(calls).to.deep.include.members([
      ['attempt', 'dead', '4xx', 0.008],
      ['deadLetter', 'permanent_status'],
    ]);
  });

  it('reports a stale reply as a dead letter without an attempt', async () => {
    await h.receive('a', { receivedAtMs: T0 - SETTINGS.replyMaxAgeMs - 1 });
    await turn();
    expect(calls.filter((c) => c[0] === 'attempt')).to.deep.equal([]);
    expect(calls).to.deep.include(['deadLetter', 'stale']);
  });

  it('reports an attempt aborted in flight as cancelled, with the abort latency', async () => {
    await h.receive('a');
    h.deliverer.during = async () => {
      await h.replies.stop(CONVERSATION);
      h.clock.advance(250);
    };
    await turn();
    expect(calls).to.deep.include.members([
      ['attempt', 'cancelled', '2xx', 0.012],
      ['cancelled', 'in_flight'],
      ['abortLatency', 0.25],
    ]);
  });

  it('reports an engine failure', async () => {
    await h.receive('a');
    h.engine.during = () => Promise.reject(new Error('engine down'));
    let failed = false;
    await turn().catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(calls).to.deep.equal([['engine', 'error', 0]]);
  });

  it('names status classes', () => {
    expect([statusClassOf(204), statusClassOf(301), statusClassOf(429), statusClassOf(503), statusClassOf(null)]).to.deep.equal([
      '2xx',
      '3xx',
      '4xx',
      '5xx',
      'none',
    ]);
  });
});
