import { expect } from 'chai';
import { shownJobName } from '../src/http/queue-dashboard.js';

describe("queue dashboard job names (what the board's name formatter shows)", () => {
  const job = { name: 'conversation-turn', data: { conversationId: 'c_1', generation: 2 } };

  it('shows why a job waits from the progress the dispatcher wrote, bounded to 200 characters on one line', () => {
    const long = `delivery dlv_1 attempt 3:\n${'x'.repeat(300)}`;
    const name = shownJobName({ ...job, progress: { last_error: long } });
    expect(name).to.equal(
      `conversation-turn · conversation c_1 · generation 2 · retrying after: ${`delivery dlv_1 attempt 3: ${'x'.repeat(300)}`.slice(0, 200)}…`,
    );
  });

  it('ignores a progress of another shape (a number, an object without last_error, a non-string last_error)', () => {
    for (const progress of [42, 'text', { other: 'x' }, { last_error: 7 }, null])
      expect(shownJobName({ ...job, progress }), JSON.stringify(progress)).to.equal('conversation-turn · conversation c_1 · generation 2');
  });

  it('shows both the retry reason and the last thrown error when a job has both', () => {
    expect(
      shownJobName({ ...job, progress: { last_error: 'delivery dlv_1 attempt 1: answered 503' }, failedReason: 'Redis\naway' }),
    ).to.equal(
      'conversation-turn · conversation c_1 · generation 2 · retrying after: delivery dlv_1 attempt 1: answered 503 · last error: Redis away',
    );
  });
});
