import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../src/bin/eval-knowledge.js', import.meta.url));
const SECTION = '## Replies: your FAQ, or a model grounded in it';

/** The fenced blocks of the README's replies section, in order: [language, text]. */
function fencedBlocks(): [string, string][] {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const start = readme.indexOf(`\n${SECTION}\n`);
  expect(start, `README section "${SECTION}"`).to.be.greaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const found: [string, string][] = [];
  for (const match of readme.slice(start, end < 0 ? undefined : end).matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm))
    found.push([match[1] ?? '', match[2] ?? '']);
  return found;
}

describe("the README's evaluation example", () => {
  it('prints what the README shows: the command of its sh block, run as written, ends with its output block', async () => {
    const [command, printed] = fencedBlocks();
    expect(command?.[0]).to.equal('sh');
    expect(printed?.[0]).to.equal('');
    const args = /npm run -s eval:knowledge -- (.+)$/m.exec(command?.[1] ?? '')?.[1]?.split(' ');
    expect(args, 'the sh block runs eval:knowledge').to.be.an('array');
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...(args ?? [])], { cwd: ROOT });
    expect(stdout.trimEnd().endsWith((printed?.[1] ?? '').trimEnd())).to.equal(true, stdout);
  });
});
