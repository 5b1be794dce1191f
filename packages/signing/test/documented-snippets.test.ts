import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signRequestBody } from '../src/index.js';
import { DEMO_BODY_JSON, DEMO_HMAC_SIGNATURE, DEMO_SECRET, PLAIN_SECRET_WEBHOOK, SPEC_WEBHOOK } from './test-vectors.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const GUIDE = readFileSync(join(ROOT, 'docs', 'integrating.md'), 'utf8');

/** The first fenced block of `language` in docs/integrating.md. */
function snippet(language: string): string {
  const block = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(GUIDE)?.[1];
  expect(block, `a ${language} block in docs/integrating.md`).to.be.a('string');
  return block ?? '';
}

/** A body whose canonical form exercises what RFC 8785 specifies: escapes, key order by UTF-16 code units, nesting, literals. */
const TRICKY = {
  client: 'demo', timestamp: 1700000000, z: [true, false, null, [], {}], é: 1, '€': 2, '😀': 3, ﬀ: 4,
  message_info: { content: 'q"b\\s/ \u0001\u001f\b\f\n\r\t\u007f\u2028 😀 <>&', message_type: -12, big: 123456789012 },
  signature: 'ignored',
};

describe('signing snippets of docs/integrating.md', function () {
  this.timeout(20_000);

  it('the Python snippet signs the worked example and any body as the service does, and verifies the Standard Webhooks example', () => {
    const dir = mkdtempSync(join(tmpdir(), 'python-snippet-'));
    writeFileSync(join(dir, 'relay_signing.py'), snippet('python'));
    const harness = `
import json, sys
from relay_signing import sign_request, verify_delivery
cases = json.loads(sys.stdin.read())
w, p = cases['webhook'], cases['plain']
headers = {'webhook-id': w['id'], 'webhook-timestamp': str(w['timestamp']), 'webhook-signature': 'v1,bm90IGl0 ' + w['signature']}
plain = {'webhook-id': p['id'], 'webhook-timestamp': str(p['timestamp']), 'webhook-signature': p['signature']}
print(json.dumps({
  'demo': sign_request(json.loads(cases['demo']), cases['secret']),
  'tricky': sign_request(cases['tricky'], cases['secret']),
  'verified': verify_delivery(w['body'].encode(), headers, w['secret'], now=w['timestamp'] + 299),
  'changed': verify_delivery(w['body'].encode() + b' ', headers, w['secret'], now=w['timestamp']),
  'stale': verify_delivery(w['body'].encode(), headers, w['secret'], now=w['timestamp'] + 301),
  'plain': verify_delivery(p['body'].encode(), plain, p['secret'], now=p['timestamp']),
}))`;
    const input = JSON.stringify({ demo: DEMO_BODY_JSON, secret: DEMO_SECRET, tricky: TRICKY, webhook: SPEC_WEBHOOK, plain: PLAIN_SECRET_WEBHOOK });
    const run = spawnSync('python3', ['-c', harness], { cwd: dir, input, encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(out).to.deep.equal({
      demo: DEMO_HMAC_SIGNATURE,
      tricky: signRequestBody(TRICKY, DEMO_SECRET, 'hmac-sha256'),
      verified: true,
      changed: false,
      stale: false,
      plain: true,
    });
  });
});
