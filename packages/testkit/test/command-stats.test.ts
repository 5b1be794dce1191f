import { expect } from 'chai';
import { commandCalls } from '../src/index.js';

describe('commandCalls', () => {
  it("reads each command's calls from INFO commandstats, subcommands and the section header included", () => {
    const info = [
      '# Commandstats',
      'cmdstat_get:calls=12,usec=30,usec_per_call=2.50,rejected_calls=0,failed_calls=0',
      'cmdstat_config|resetstat:calls=1,usec=5,usec_per_call=5.00,rejected_calls=0,failed_calls=0\r',
      'cmdstat_evalsha:calls=3,usec=90,usec_per_call=30.00,rejected_calls=0,failed_calls=1',
      '',
    ].join('\r\n');
    expect(Object.fromEntries(commandCalls(info))).to.deep.equal({ get: 12, 'config|resetstat': 1, evalsha: 3 });
  });

  it('reads nothing from a section without commands', () => {
    expect(commandCalls('# Commandstats\r\n').size).to.equal(0);
  });
});
