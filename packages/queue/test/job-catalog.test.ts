import { expect } from 'chai';
import { assertCompleteCatalog, JOB_NAMES, turnJobId } from '../src/index.js';

describe('job catalog', () => {
  it('accepts exactly one handler per job name', () => {
    expect(() => assertCompleteCatalog({ [JOB_NAMES.conversationTurn]: 1, [JOB_NAMES.redeliver]: 2 })).to.not.throw();
  });

  it('refuses a missing or an extra handler at start-up', () => {
    expect(() => assertCompleteCatalog({ [JOB_NAMES.conversationTurn]: 1 })).to.throw(/do not match/);
    expect(() => assertCompleteCatalog({ [JOB_NAMES.conversationTurn]: 1, [JOB_NAMES.redeliver]: 2, extra: 3 })).to.throw(/do not match/);
  });

  it('makes job ids without colons (BullMQ refuses them)', () => {
    expect(turnJobId('c_abc-DEF_1', 7)).to.equal('c_abc-DEF_1-7').and.not.include(':');
  });
});
