import { expect } from 'chai';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, SECRET_FILE_VARIABLES } from '../src/index.js';
import { refusal } from './support/refusal.js';

const CLIENTS = JSON.stringify({ shop: { secret: 'shop-secret-0001' } });

/** README configuration: every secret may come from a file (`<NAME>_FILE`), as Docker and Kubernetes mount them. */
describe('secrets from files (<NAME>_FILE)', () => {
  let dir: string;
  /** A file holding `text`, readable by its owner only unless `mode` says otherwise. */
  const secretFile = (name: string, text: string, mode = 0o600): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dr-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each secret from its file, a trailing newline removed, into the same setting as the variable', () => {
    const config = loadConfig({
      CLIENTS_FILE: secretFile('clients.json', `${CLIENTS}\n`),
      ADMIN_TOKEN_FILE: secretFile('admin', 'admin-token-from-file\n'),
      ADMIN_WRITE_TOKEN_FILE: secretFile('write', 'write-token-from-file\r\n'),
      REDIS_PASSWORD_FILE: secretFile('redis', 'redis pass word\n'),
      EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1',
      EMBEDDINGS_API_KEY_FILE: secretFile('embeddings', 'embeddings-key'),
    });
    expect(config.clients.get('shop')?.secrets).to.deep.equal(['shop-secret-0001']);
    expect(config.adminToken).to.equal('admin-token-from-file');
    expect(config.ingress.adminWriteToken).to.equal('write-token-from-file');
    expect(config.redis.password).to.equal('redis pass word');
    expect(config.replyEngine).to.deep.include({ kind: 'knowledge' });
    expect(config.replyEngine.kind === 'knowledge' ? config.replyEngine.embeddings?.apiKey : undefined).to.equal('embeddings-key');
    expect(config.warnings).to.deep.equal([]);
    const openai = loadConfig({ REPLY_ENGINE: 'openai', OPENAI_API_KEY_FILE: secretFile('openai', 'sk-from-a-file\n') });
    expect(openai.replyEngine).to.deep.include({ kind: 'openai', apiKey: 'sk-from-a-file' });
  });

  it('gives the password of REDIS_PASSWORD_FILE to Sentinel and Cluster connections too', () => {
    const REDIS_PASSWORD_FILE = secretFile('redis', 'pw-from-file\n');
    expect(loadConfig({ REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'relay', REDIS_PASSWORD_FILE }).redis.password).to.equal(
      'pw-from-file',
    );
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001', REDIS_PASSWORD_FILE }).redis.password).to.equal('pw-from-file');
  });

  it('applies the same checks to a secret from a file as to the variable, naming the variable', () => {
    expect(refusal({ ADMIN_TOKEN_FILE: secretFile('admin', 'short\n') })).to.match(/^ADMIN_TOKEN: .*16 characters/);
    expect(refusal({ CLIENTS_FILE: secretFile('clients', '{"shop":{"secret":"fifteen-chars-x"}}') })).to.match(/^CLIENTS: client "shop"/);
    const same = secretFile('same', 'the-same-token-01');
    expect(refusal({ ADMIN_TOKEN: 'the-same-token-01', ADMIN_WRITE_TOKEN_FILE: same })).to.match(/^ADMIN_WRITE_TOKEN: must differ/);
  });

  for (const name of SECRET_FILE_VARIABLES) {
    it(`stops start-up when ${name} and ${name}_FILE are both set, naming both and quoting neither`, () => {
      const message = refusal({ [name]: 'value-in-the-environment', [`${name}_FILE`]: secretFile('s', 'value-in-the-file') });
      expect(message).to.match(new RegExp(`^${name}_FILE: ${name} is set too`));
      expect(message).not.to.include('value-in-the');
    });
  }

  it('stops start-up naming the variable and the path for a missing, unreadable or empty file', () => {
    expect(refusal({ ADMIN_TOKEN_FILE: join(dir, 'absent') })).to.equal(`ADMIN_TOKEN_FILE: cannot read ${join(dir, 'absent')} (ENOENT)`);
    expect(refusal({ CLIENTS_FILE: dir })).to.match(/^CLIENTS_FILE: cannot read .* \(EISDIR\)$/);
    expect(refusal({ OPENAI_API_KEY_FILE: secretFile('empty', '\n') })).to.match(/^OPENAI_API_KEY_FILE: .*empty$/);
  });

  it('warns, without the content, when group or others may read the file, and still reads it', () => {
    const path = secretFile('admin', 'admin-token-readable\n', 0o644);
    const config = loadConfig({ ADMIN_TOKEN_FILE: path });
    expect(config.adminToken).to.equal('admin-token-readable');
    expect(config.warnings).to.have.length(1);
    expect(config.warnings[0]).to.match(new RegExp(`^ADMIN_TOKEN_FILE: ${path} may be read by group or others \\(mode 0644\\)`));
    expect(config.warnings[0]).not.to.include('admin-token-readable');
    expect(loadConfig({ ADMIN_TOKEN_FILE: secretFile('group', 'admin-token-readable', 0o640) }).warnings).to.have.length(1);
    expect(loadConfig({ ADMIN_TOKEN_FILE: secretFile('owner', 'admin-token-readable', 0o400) }).warnings).to.deep.equal([]);
  });

  it("never quotes a file's content when it is not valid JSON (CLIENTS_FILE)", () => {
    const message = refusal({ CLIENTS_FILE: secretFile('clients', '{"shop":{"secret":qzxw-9876-vbnm}}') });
    expect(message).to.match(/^CLIENTS: not valid JSON/);
    expect(message).not.to.include('qzxw');
  });
});

describe('REDIS_PASSWORD with a REDIS_URL that holds a password', () => {
  it("stops start-up: ioredis would send the URL's password and ignore REDIS_PASSWORD", () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://:in-the-url@127.0.0.1:6379', REDIS_PASSWORD: 'other-pw' })).to.throw(
      ConfigError,
      /^REDIS_PASSWORD: REDIS_URL holds a password too/,
    );
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PASSWORD: 'other-pw' }).redis.password).to.equal('other-pw');
  });
});
