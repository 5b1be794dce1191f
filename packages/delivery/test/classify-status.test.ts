import { expect } from 'chai';
import { classifyStatus, type StatusClass } from '../src/index.js';

describe('classifyStatus', () => {
  const table: Array<[number, StatusClass]> = [
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [408, 'retry'],
    [425, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [502, 'retry'],
    [503, 'retry'],
    [599, 'retry'],
    [301, 'permanent'],
    [302, 'permanent'],
    [400, 'permanent'],
    [401, 'permanent'],
    [404, 'permanent'],
    [410, 'permanent'],
    [422, 'permanent'],
    [100, 'permanent'],
    [600, 'permanent'],
  ];

  for (const [status, expected] of table) {
    it(`treats ${status} as ${expected}`, () => {
      expect(classifyStatus(status)).to.equal(expected);
    });
  }
});
