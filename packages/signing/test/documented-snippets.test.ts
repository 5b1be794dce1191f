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
  client: 'demo',
  timestamp: 1700000000,
  z: [true, false, null, [], {}],
  é: 1,
  '€': 2,
  '😀': 3,
  ﬀ: 4,
  message_info: { content: 'q"b\\s/ \u0001\u001f\b\f\n\r\t\u007f\u2028 😀 <>&', message_type: -12, big: 123456789012 },
  signature: 'ignored',
};

/** What every harness prints for the test vectors (the Python one's, and the Java and PHP ones'). */
const EXPECTED = {
  demo: DEMO_HMAC_SIGNATURE,
  tricky: signRequestBody(TRICKY, DEMO_SECRET, 'hmac-sha256'),
  verified: true,
  changed: false,
  stale: false,
  plain: true,
};
const INPUT = JSON.stringify({
  demo: DEMO_BODY_JSON,
  secret: DEMO_SECRET,
  tricky: TRICKY,
  webhook: SPEC_WEBHOOK,
  plain: PLAIN_SECRET_WEBHOOK,
});

/**
 * Registers the test of a snippet whose toolchain may be missing. Installed: the test runs. Missing
 * under CI=1 (.ci/run installs it): a failing test that says so. Missing elsewhere: no test, and one
 * line in the output naming the snippet that was not run (never a skipped test).
 */
function withToolchain(language: string, probe: [string, ...string[]], register: () => void): void {
  const [command, ...args] = probe;
  if (spawnSync(command, args, { stdio: 'ignore' }).status === 0) {
    register();
  } else if (process.env['CI'] === '1') {
    it(`the ${language} snippet runs (needs ${command})`, () => {
      throw new Error(
        `${command} is not installed, and CI=1 requires it (docs/development.md "Tests"): the ${language} snippet of docs/integrating.md was not run`,
      );
    });
  } else {
    console.log(
      `  (not run: the ${language} snippet of docs/integrating.md; ${command} is not installed here, and under CI=1 its absence fails the run)`,
    );
  }
}

/** The JSON parser of the Java harness: Java 17 has none in its standard library (integers become Integer or Long). */
const JAVA_HARNESS = String.raw`
import java.nio.charset.StandardCharsets;
import java.util.*;

public final class Harness {
  private final String s;
  private int i;
  private Harness(String s) { this.s = s; }

  private void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }

  private Object value() {
    ws();
    char c = s.charAt(i);
    if (c == '{') {
      i++;
      Map<String, Object> map = new LinkedHashMap<>();
      ws();
      if (s.charAt(i) == '}') { i++; return map; }
      for (;;) {
        ws();
        String key = string();
        ws();
        i++; // :
        map.put(key, value());
        ws();
        if (s.charAt(i++) == '}') return map;
      }
    }
    if (c == '[') {
      i++;
      List<Object> list = new ArrayList<>();
      ws();
      if (s.charAt(i) == ']') { i++; return list; }
      for (;;) {
        list.add(value());
        ws();
        if (s.charAt(i++) == ']') return list;
      }
    }
    if (c == '"') return string();
    if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
    if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
    if (s.startsWith("null", i)) { i += 4; return null; }
    int start = i;
    while (i < s.length() && "-0123456789".indexOf(s.charAt(i)) >= 0) i++;
    long n = Long.parseLong(s.substring(start, i));
    return n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE ? (Object) (int) n : (Object) n;
  }

  private String string() {
    i++;
    StringBuilder b = new StringBuilder();
    for (;;) {
      char c = s.charAt(i++);
      if (c == '"') return b.toString();
      if (c != '\\') { b.append(c); continue; }
      char e = s.charAt(i++);
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
        default -> b.append(e);
      }
    }
  }

  @SuppressWarnings("unchecked")
  public static void main(String[] args) throws Exception {
    String input = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    Map<String, Object> cases = (Map<String, Object>) new Harness(input).value();
    Map<String, Object> w = (Map<String, Object>) cases.get("webhook");
    Map<String, Object> p = (Map<String, Object>) cases.get("plain");
    String secret = (String) cases.get("secret");
    Map<String, Object> demo = (Map<String, Object>) new Harness((String) cases.get("demo")).value();
    long wTs = ((Number) w.get("timestamp")).longValue();
    long pTs = ((Number) p.get("timestamp")).longValue();
    byte[] wBody = ((String) w.get("body")).getBytes(StandardCharsets.UTF_8);
    byte[] changed = (((String) w.get("body")) + " ").getBytes(StandardCharsets.UTF_8);
    String wSignatures = "v1,bm90IGl0 " + w.get("signature");
    String wSecret = (String) w.get("secret");
    String wId = (String) w.get("id");
    System.out.println("{\"demo\":\"" + DialogRelaySigning.signRequest(demo, secret) + "\""
      + ",\"tricky\":\"" + DialogRelaySigning.signRequest((Map<String, Object>) cases.get("tricky"), secret) + "\""
      + ",\"verified\":" + DialogRelaySigning.verifyDelivery(wBody, wId, String.valueOf(wTs), wSignatures, wSecret, wTs + 299)
      + ",\"changed\":" + DialogRelaySigning.verifyDelivery(changed, wId, String.valueOf(wTs), wSignatures, wSecret, wTs)
      + ",\"stale\":" + DialogRelaySigning.verifyDelivery(wBody, wId, String.valueOf(wTs), wSignatures, wSecret, wTs + 301)
      + ",\"plain\":" + DialogRelaySigning.verifyDelivery(((String) p.get("body")).getBytes(StandardCharsets.UTF_8), (String) p.get("id"), String.valueOf(pTs), (String) p.get("signature"), (String) p.get("secret"), pTs)
      + "}");
  }
}
`;

/** The PHP harness: the snippet, then the same cases (json_decode without assoc, as the guide says). */
const PHP_HARNESS = `
$cases = json_decode(file_get_contents('php://stdin'));
$w = $cases->webhook;
$p = $cases->plain;
$headers = ['webhook-id' => $w->id, 'webhook-timestamp' => (string) $w->timestamp, 'webhook-signature' => 'v1,bm90IGl0 ' . $w->signature];
$plain = ['webhook-id' => $p->id, 'webhook-timestamp' => (string) $p->timestamp, 'webhook-signature' => $p->signature];
echo json_encode([
  'demo' => sign_request((array) json_decode($cases->demo), $cases->secret),
  'tricky' => sign_request((array) $cases->tricky, $cases->secret),
  'verified' => verify_delivery($w->body, $headers, $w->secret, $w->timestamp + 299),
  'changed' => verify_delivery($w->body . ' ', $headers, $w->secret, $w->timestamp),
  'stale' => verify_delivery($w->body, $headers, $w->secret, $w->timestamp + 301),
  'plain' => verify_delivery($p->body, $plain, $p->secret, $p->timestamp),
]);
`;

describe('signing snippets of docs/integrating.md', function () {
  this.timeout(60_000);

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
    const run = spawnSync('python3', ['-c', harness], { cwd: dir, input: INPUT, encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal(EXPECTED);
  });

  withToolchain('Java', ['javac', '-version'], () => {
    it('the Java snippet signs the worked example and any body as the service does, and verifies the Standard Webhooks example', () => {
      const dir = mkdtempSync(join(tmpdir(), 'java-snippet-'));
      writeFileSync(join(dir, 'DialogRelaySigning.java'), snippet('java'));
      writeFileSync(join(dir, 'Harness.java'), JAVA_HARNESS);
      const compiled = spawnSync('javac', ['-encoding', 'UTF-8', '-d', 'out', 'DialogRelaySigning.java', 'Harness.java'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(compiled.status, compiled.stderr).to.equal(0);
      const run = spawnSync('java', ['-Dfile.encoding=UTF-8', '-cp', 'out', 'Harness'], { cwd: dir, input: INPUT, encoding: 'utf8' });
      expect(run.status, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.equal(EXPECTED);
    });
  });

  withToolchain('PHP', ['php', '--version'], () => {
    it('the PHP snippet signs the worked example and any body as the service does, and verifies the Standard Webhooks example', () => {
      const dir = mkdtempSync(join(tmpdir(), 'php-snippet-'));
      writeFileSync(join(dir, 'harness.php'), `${snippet('php')}\n${PHP_HARNESS}`);
      const run = spawnSync('php', ['harness.php'], { cwd: dir, input: INPUT, encoding: 'utf8' });
      expect(run.status, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.equal(EXPECTED);
    });
  });
});
