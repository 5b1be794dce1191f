import type { Job } from 'bullmq';
import { DelayedError } from 'bullmq';
import { expect } from 'chai';
import { cappedBackoffMs, createFailedJobListener, createJobDispatcher, DONE, type JobHandlers, type JobPayloads } from '../src/index.js';

/** The parts of a BullMQ Job the dispatcher reads, and a record of moveToDelayed. */
const fakeJob = (name: string, data: unknown, attemptsMade: number, delayed: number[] = [], progress: unknown[] = []): Job =>
  ({
    name,
    data,
    attemptsMade,
    failedReason: 'earlier',
    moveToDelayed: (until: number) => Promise.resolve(void delayed.push(until)),
    updateProgress: (value: unknown) => Promise.resolve(void progress.push(value)),
  }) as unknown as Job;

describe('job dispatcher', () => {
  const calls: string[] = [];
  let failing = false;
  const handlers: JobHandlers = {
    'conversation-turn': {
      process: (payload) => {
        calls.push(`process ${payload.conversationId}/${payload.generation}`);
        return failing ? Promise.reject(new Error('boom')) : Promise.resolve(DONE);
      },
      failedForGood: (payload, error) => Promise.resolve(void calls.push(`gave up ${payload.conversationId}: ${error.message}`)),
    },
    redeliver: {
      process: (payload) =>
        Promise.resolve(
          payload.deliveryId === 'failing'
            ? { kind: 'wait', untilMs: 5678, lastError: 'attempt 1: answered 503' }
            : { kind: 'wait', untilMs: 1234 },
        ),
      failedForGood: () => Promise.resolve(),
    },
  };
  const dispatch = createJobDispatcher(handlers, { failureAttempts: 3 });
  beforeEach(() => {
    calls.length = 0;
    failing = false;
  });

  it('runs the handler of the job name with its payload', async () => {
    await dispatch(fakeJob('conversation-turn', { conversationId: 'c_1', generation: 4 }, 0), 'token');
    expect(calls).to.deep.equal(['process c_1/4']);
  });

  it('moves a job that must wait back to the delayed set without counting an attempt', async () => {
    const delayed: number[] = [];
    let thrown: unknown;
    await dispatch(fakeJob('redeliver', { deliveryId: 'd' }, 0, delayed), 'token').catch((e: unknown) => (thrown = e));
    expect(delayed).to.deep.equal([1234]);
    expect(thrown).to.be.instanceOf(DelayedError);
  });

  it('writes why a job waits (a failed attempt) to its progress, where the queue dashboard shows it, and nothing when no attempt failed', async () => {
    const delayed: number[] = [];
    const progress: unknown[] = [];
    await dispatch(fakeJob('redeliver', { deliveryId: 'failing' }, 0, delayed, progress), 'token').catch(() => undefined);
    expect(delayed).to.deep.equal([5678]);
    expect(progress).to.deep.equal([{ last_error: 'attempt 1: answered 503' }]);
    progress.length = 0;
    await dispatch(fakeJob('redeliver', { deliveryId: 'd' }, 0, delayed, progress), 'token').catch(() => undefined);
    expect(progress, 'a debounce wait writes nothing more').to.deep.equal([]);
  });

  it('rethrows a failure within the budget, so BullMQ retries it', async () => {
    failing = true;
    let thrown: unknown;
    await dispatch(fakeJob('conversation-turn', { conversationId: 'c_1', generation: 0 }, 1), 'token').catch((e: unknown) => (thrown = e));
    expect((thrown as Error).message).to.equal('boom');
    expect(calls).to.deep.equal(['process c_1/0']);
  });

  it('decides the final failure on the last run instead of leaving the job failed', async () => {
    failing = true;
    await dispatch(fakeJob('conversation-turn', { conversationId: 'c_1', generation: 0 }, 2), 'token');
    expect(calls).to.deep.equal(['process c_1/0', 'gave up c_1: boom']);
  });

  it('past its budget only retries the give-up', async () => {
    await dispatch(fakeJob('conversation-turn', { conversationId: 'c_1', generation: 0 }, 5), 'token');
    expect(calls).to.deep.equal(['gave up c_1: earlier']);
  });

  it('refuses a job name that is not in the catalog', async () => {
    let thrown: unknown;
    await dispatch(fakeJob('purge-everything', {}, 0), 'token').catch((e: unknown) => (thrown = e));
    expect((thrown as Error).message).to.match(/no handler for job purge-everything/);
  });

  it("does not compile a handler whose payload type is not its job name's", () => {
    const wrong = {
      'conversation-turn': {
        process: (payload: JobPayloads['redeliver']) => Promise.resolve(payload.deliveryId ? DONE : DONE),
        failedForGood: () => Promise.resolve(),
      },
      redeliver: { process: () => Promise.resolve(DONE), failedForGood: () => Promise.resolve() },
    };
    // @ts-expect-error the conversation-turn handler takes a redeliver payload
    const checked: JobHandlers = wrong;
    expect(checked).to.equal(wrong);
  });

  it('hands a job BullMQ gave up on for stalling back as due, and decides the end of any other it moved to the failed set, and only then', async () => {
    const errors: string[] = [];
    const retried: string[] = [];
    const listener = createFailedJobListener(handlers, (_job, error) => errors.push(error.message));
    const inFailedSet = (job: Job, failed: boolean): Job =>
      Object.assign(job, {
        isFailed: () => Promise.resolve(failed),
        retry: (state: string) => Promise.resolve(void retried.push(`${String(job.id)} from ${state}`)),
      });
    await listener(
      inFailedSet(fakeJob('conversation-turn', { conversationId: 'c_2', generation: 1 }, 0), false),
      new Error('retried later'),
    );
    expect(calls).to.deep.equal([]);
    await listener(
      inFailedSet(fakeJob('conversation-turn', { conversationId: 'c_2', generation: 1 }, 0), true),
      new Error('job stalled more than allowable limit'),
    );
    expect(calls).to.deep.equal([]);
    expect(retried).to.have.length(1);
    expect(retried[0]).to.match(/ from failed$/);
    await listener(
      inFailedSet(fakeJob('conversation-turn', { conversationId: 'c_2', generation: 1 }, 0), true),
      new Error('attempts spent'),
    );
    expect(calls).to.deep.equal(['gave up c_2: attempts spent']);
    expect(retried).to.have.length(1);
    await listener(undefined, new Error('no job'));
    expect(errors).to.deep.equal([]);
  });

  it('backs off 1 s, 2 s, 4 s … and never more than 30 s between failed runs', () => {
    expect([1, 2, 3, 6, 20].map(cappedBackoffMs)).to.deep.equal([1000, 2000, 4000, 30_000, 30_000]);
  });
});
