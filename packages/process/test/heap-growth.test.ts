import { expect } from 'chai';
import { applyHeapGrowth } from '../src/heap-growth.js';

describe('heap growth (HEAP_GROWING_PERCENT)', () => {
  it("sets V8's old-generation growing factor for the process, and leaves V8's own when it is 0", () => {
    const set: string[] = [];
    applyHeapGrowth(50, (flags) => set.push(flags));
    expect(set).to.deep.equal(['--heap-growing-percent=50']);
    applyHeapGrowth(0, (flags) => set.push(flags));
    expect(set, '0: nothing set').to.have.length(1);
  });
});
