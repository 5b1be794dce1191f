import { expect } from 'chai';
import { readFileSync } from 'node:fs';

const root = new URL('../../../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

/** CHANGELOG.md (Keep a Changelog): its newest section is the version the CLI's --version prints, or Unreleased. */
describe('CHANGELOG.md', () => {
  const changelog = read('CHANGELOG.md');
  const { version } = JSON.parse(read('package.json')) as { version: string };
  const sections = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]);

  it('follows Keep a Changelog: a title, then sections headed ## [version] or ## [Unreleased]', () => {
    expect(changelog).to.match(/^# Changelog\n/);
    expect(changelog).to.include('https://keepachangelog.com/');
    expect(sections.length).to.be.greaterThan(0);
    for (const section of sections) expect(section).to.match(/^(Unreleased|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/);
  });

  it("names the root package.json's version or Unreleased in its newest section", () => {
    expect([version, 'Unreleased']).to.include(sections[0]);
  });

  it("has a section for the root package.json's version, or keeps it under Unreleased (not yet released)", () => {
    expect(sections.includes(version) || (sections[0] === 'Unreleased' && changelog.includes(version))).to.equal(true);
  });
});
