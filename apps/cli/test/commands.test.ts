import { spawnSync } from 'node:child_process';
import { createClientStore, type ClientStore } from '@dialog-relay/clients';
import { loadConfig, parseClientRecord } from '@dialog-relay/config';
import { JOB_NAMES, type JobProducer } from '@dialog-relay/queue';
import { createDeliveryStore, type DeliveryRecord, type DeliveryStore } from '@dialog-relay/replies';
import { createRedis, createRedisKeys, waitForRedis, type Redis } from '@dialog-relay/redis';
import { verifyRequestSignature, type SignatureScheme } from '@dialog-relay/signing';
import { testRedisEnv, uniquePrefix } from '@dialog-relay/testkit';
import { expect } from 'chai';
import { clientsCommand } from '../src/commands/clients.command.js';
import { deadLettersCommand } from '../src/commands/dead-letters.command.js';
import { signCommand, type SignOptions } from '../src/commands/sign.command.js';
import { deliveryRecord } from './support/delivery-records.js';

const NOW_S = 1_700_000_000;

const signOptions = (overrides: Partial<SignOptions> = {}): SignOptions => ({
  client: 'demo',
  secret: 'demo-secret',
  scheme: 'hmac-sha256',
  event: 'assist_dialog',
  content: 'When are you open?',
  sendUrl: undefined,
  from: 'customer-1',
  to: 'bot-1',
  url: 'http://127.0.0.1:8080',
  nowS: NOW_S,
  ...overrides,
});

/** The JSON body of the curl line: the single-quoted word after -d, with the shell's '\'' turned back into '. */
function curlBody(line: string): Record<string, unknown> {
  const match = /-d '((?:[^']|'\\'')*)'$/.exec(line);
  if (!match?.[1]) throw new Error(`no -d '…' body in: ${line}`);
  return JSON.parse(match[1].replaceAll("'\\''", "'")) as Record<string, unknown>;
}

function verifies(body: Record<string, unknown>, scheme: SignatureScheme, secret: string): boolean {
  const signature = body['signature'];
  if (typeof signature !== 'string') throw new Error('no signature in the body');
  return verifyRequestSignature({ body, signature, scheme, secrets: [secret] }).ok;
}

describe('cli sign', () => {
  it('prints a curl line that POSTs a body signed with hmac-sha256', () => {
    const line = signCommand(signOptions());

    expect(line).to.match(/^curl -s 'http:\/\/127\.0\.0\.1:8080\/custom-im\/chat-messages' -H 'Content-Type: application\/json' -d '/);
    const body = curlBody(line);
    expect(body).to.include({ client: 'demo', timestamp: NOW_S });
    expect(body['message_info']).to.include({
      from_user_id: 'customer-1',
      to_user_id: 'bot-1',
      content: 'When are you open?',
      event_type: 'assist_dialog',
      create_timestamp: NOW_S,
    });
    expect(verifies(body, 'hmac-sha256', 'demo-secret')).to.equal(true);
    expect(verifies(body, 'hmac-sha256', 'other-secret')).to.equal(false);
  });

  it('quotes the URL so that a shell passes it to curl whole, & and quotes included', () => {
    const url = "http://127.0.0.1:8080/base?a=1&b='2'";
    const line = signCommand({ ...signOptions(), url });
    // curl is a shell function here that prints its arguments: nothing is sent.
    const printed = spawnSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }; eval "$LINE"`], {
      env: { ...process.env, LINE: line },
      encoding: 'utf8',
    });
    expect(printed.status).to.equal(0);
    expect(printed.stdout.split('\n').slice(0, 2)).to.deep.equal(['-s', `${url}/custom-im/chat-messages`]);
  });

  it('joins a URL given with a trailing slash without doubling it', () => {
    expect(signCommand({ ...signOptions(), url: 'http://127.0.0.1:8080/' })).to.match(
      /^curl -s 'http:\/\/127\.0\.0\.1:8080\/custom-im\/chat-messages' /,
    );
  });

  it('signs the whole body with hmac-sha256: a changed content no longer verifies', () => {
    const body = curlBody(signCommand(signOptions()));
    const tampered = { ...body, message_info: { ...(body['message_info'] as object), content: 'changed' } };

    expect(verifies(tampered, 'hmac-sha256', 'demo-secret')).to.equal(false);
  });

  it('prints a body signed with md5 when asked', () => {
    const body = curlBody(signCommand(signOptions({ scheme: 'md5' })));

    expect(verifies(body, 'md5', 'demo-secret')).to.equal(true);
    expect(verifies(body, 'md5', 'other-secret')).to.equal(false);
    expect(verifies(body, 'hmac-sha256', 'demo-secret')).to.equal(false);
  });

  for (const scheme of ['hmac-sha256', 'md5'] as const) {
    it(`makes an auto_dialog body with send_url and from_user_type 2 that verifies (${scheme})`, () => {
      const body = curlBody(signCommand(signOptions({ scheme, event: 'auto_dialog', sendUrl: 'https://hooks.example/replies' })));

      expect(body['send_url']).to.equal('https://hooks.example/replies');
      expect(body['message_info']).to.include({ event_type: 'auto_dialog', from_user_type: 2 });
      expect(verifies(body, scheme, 'demo-secret')).to.equal(true);
    });
  }

  it('leaves send_url and from_user_type out of an assist_dialog body', () => {
    const body = curlBody(signCommand(signOptions()));

    expect(body).not.to.have.property('send_url');
    expect(body['message_info']).not.to.have.property('from_user_type');
  });

  it('quotes a content with apostrophes for the shell, and the body still verifies', () => {
    const line = signCommand(signOptions({ content: "When's the shop open? It's 'urgent'" }));

    const body = curlBody(line);
    expect(body['message_info']).to.include({ content: "When's the shop open? It's 'urgent'" });
    expect(verifies(body, 'hmac-sha256', 'demo-secret')).to.equal(true);
  });

  it('gives every signed request its own msg_id', () => {
    const first = curlBody(signCommand(signOptions()))['message_info'] as { msg_id: string };
    const second = curlBody(signCommand(signOptions()))['message_info'] as { msg_id: string };

    expect(first.msg_id).to.match(/^cli-/);
    expect(first.msg_id).not.to.equal(second.msg_id);
  });

  it('refuses an unknown --scheme', () => {
    expect(() => signCommand(signOptions({ scheme: 'sha1' }))).to.throw(/--scheme must be one of hmac-sha256, md5/);
  });
});

describe('cli clients and dead-letters (on Redis)', () => {
  let redis: Redis;
  before(async () => {
    // The services' Redis of this pass: one server, or the cluster of the cluster pass.
    redis = createRedis(loadConfig(testRedisEnv()).redis, 'request', { name: 'cli-test' });
    await waitForRedis(redis, 5000);
  });
  after(() => redis.disconnect());

  describe('clients', () => {
    let store: ClientStore;
    beforeEach(() => {
      store = createClientStore({ redis, keys: createRedisKeys(uniquePrefix('cli-clients')), defaultRateLimitPerS: 20 });
    });
    const run = async (...args: string[]): Promise<string> =>
      (await clientsCommand(store, args, { defaultRateLimitPerS: 20, allowPrivateSendUrls: false })).text;

    it('says so when Redis holds no clients', async () => {
      expect(await run('list')).to.equal('(no clients in Redis)');
    });

    it('adds a client, lists it without any secret, and removes it', async () => {
      const record = {
        secrets: ['request-secret-1', 'request-secret-2'],
        webhook_secret: 'whsec_d2ViaG9vay1rZXktb2YtYWNtZS0yNGJ5dGVz',
        group_policy: 'always',
        default_send_url: 'https://hooks.example/acme',
      };

      const saved = await run('add', 'acme', JSON.stringify(record));

      expect(saved).to.match(/^saved acme\t/);
      expect(await store.get('acme')).to.deep.equal(parseClientRecord('acme', record, 20));
      const listed = await run('list');
      expect(listed).to.equal(
        'acme\tscheme=hmac-sha256\tsecrets=2\twebhook_secret=set\tgroup_policy=always\trate=20/s\tdefault_send_url=https://hooks.example/acme',
      );
      for (const output of [saved, listed]) {
        for (const secret of [
          'request-secret-1',
          'request-secret-2',
          'whsec_d2ViaG9vay1rZXktb2YtYWNtZS0yNGJ5dGVz',
          'd2ViaG9vay1rZXktb2YtYWNtZS0yNGJ5dGVz',
        ])
          expect(output).not.to.include(secret);
      }

      expect(await run('remove', 'acme')).to.equal('removed acme');
      expect(await run('remove', 'acme')).to.equal('no client acme');
      expect(await run('list')).to.equal('(no clients in Redis)');
    });

    it('lists clients sorted by id, one line each', async () => {
      await run('add', 'zeta', '{"secret":"zeta-secret-00001","signature_scheme":"md5","rate_limit_per_s":5}');
      await run('add', 'alpha', '{"secret":"alpha-secret-0001"}');

      const lines = (await run('list')).split('\n');

      expect(lines).to.have.length(2);
      expect(lines[0]).to.equal(
        'alpha\tscheme=hmac-sha256\tsecrets=1\twebhook_secret=none\tgroup_policy=mention\trate=20/s\tdefault_send_url=-',
      );
      expect(lines[1]).to.match(/^zeta\tscheme=md5\tsecrets=1\t.*\trate=5\/s\t/);
    });

    it('refuses an invalid record with a message naming the client, and stores nothing', async () => {
      await expectRejection(run('add', 'acme', '{"secret":""}'), /client "acme"/);
      await expectRejection(run('add', 'acme', '{"secret":"s","colour":"red"}'), /client "acme"/);
      await expectRejection(run('add', 'acme', '{"webhook_secret":"whsec_x"}'), /client "acme": needs "secret" or "secrets"/);
      await expectRejection(run('add', 'bad id!', '{"secret":"s"}'), /client id "bad id!"/);
      await expectRejection(run('add', 'acme', '{not json'), Error);

      expect(await store.list()).to.deep.equal([]);
    });

    it('refuses a secret shorter than 16 characters and stores nothing', async () => {
      await expectRejection(run('add', 'acme', '{"secret":"fifteen-chars-x"}'), /client "acme": a secret is shorter than 16 characters/);
      await expectRejection(
        run('add', 'acme', '{"secrets":["sixteen-chars-xx","short"]}'),
        /client "acme": a secret is shorter than 16 characters/,
      );
      expect(await store.list()).to.deep.equal([]);
    });

    it('refuses, like start-up, a client that could never be served, naming the field, and stores nothing', async () => {
      const add = (settings: Record<string, unknown>): Promise<string> =>
        run('add', 'acme', JSON.stringify({ secret: 'acme-secret-0001', ...settings }));
      await expectRejection(add({ webhook_secret: 'whsec_' }), /^client "acme": webhook_secret has no key/);
      await expectRejection(
        add({ webhook_secret: 'whsec_not*base64' }),
        /^client "acme": webhook_secret is not "whsec_" followed by standard base64/,
      );
      await expectRejection(
        add({ webhook_secret: `whsec_${Buffer.alloc(15).toString('base64')}` }),
        /^client "acme": webhook_secret holds a 15-byte key/,
      );
      await expectRejection(add({ rate_limit_per_s: 0.5 }), /^client "acme": rate_limit_per_s is 0.5; it must be a whole number from 1/);
      await expectRejection(
        add({ default_send_url: 'hooks.example/acme' }),
        /^client "acme": default_send_url must be a valid absolute URL/,
      );
      await expectRejection(
        add({ default_send_url: 'http://127.0.0.1:9/acme' }),
        /^client "acme": default_send_url .*loopback address.*ALLOW_PRIVATE_SEND_URLS/,
      );
      await expectRejection(
        add({ default_send_url: 'http://169.254.169.254/x', allow_private_send_urls: true }),
        /^client "acme": default_send_url .*link-local/,
      );
      expect(await store.list()).to.deep.equal([]);
    });

    it('takes a loopback default_send_url when the client or ALLOW_PRIVATE_SEND_URLS allows private addresses', async () => {
      await run(
        'add',
        'own',
        JSON.stringify({ secret: 'acme-secret-0001', default_send_url: 'http://127.0.0.1:9/own', allow_private_send_urls: true }),
      );
      await clientsCommand(
        store,
        ['add', 'global', JSON.stringify({ secret: 'acme-secret-0001', default_send_url: 'http://127.0.0.1:9/global' })],
        { defaultRateLimitPerS: 20, allowPrivateSendUrls: true },
      );
      expect((await store.list()).map((c) => c.defaultSendUrl)).to.deep.equal(['http://127.0.0.1:9/global', 'http://127.0.0.1:9/own']);
    });

    it('answers usage errors with the usage', async () => {
      await expectRejection(run(), /usage: clients list \| add <id> <json> \| remove <id>/);
      await expectRejection(run('rename', 'a'), /usage: clients/);
      await expectRejection(run('add', 'acme'), /usage: clients add <id>/);
      await expectRejection(run('add'), /usage: clients add <id>/);
      await expectRejection(run('remove'), /usage: clients remove <id>/);
    });
  });

  describe('dead-letters', () => {
    let deliveries: DeliveryStore;
    let added: { name: string; data: unknown }[];
    const run = (...args: string[]): Promise<string> => {
      const jobs: Pick<JobProducer, 'add'> = {
        add: (...[name, data]) => {
          added.push({ name, data });
          return Promise.resolve();
        },
      };
      return deadLettersCommand({ deliveries, jobs, shardOfDelivery: () => 0, replyMaxAgeMs: 900_000 }, args).then((result) => result.text);
    };
    beforeEach(() => {
      deliveries = createDeliveryStore({ redis, keys: createRedisKeys(uniquePrefix('cli-dead'), 1), ttlS: 3600, deadLetterTtlS: 86_400 });
      added = [];
    });

    const record = (deliveryId: string): DeliveryRecord =>
      deliveryRecord(deliveryId, { conversation_id: 'c_conversationOne', in_reply_to: ['m-1', 'm-2'], payload: '{}', generation: 3 });
    const makeDeadLetter = async (deliveryId: string, atMs: number): Promise<void> => {
      await deliveries.create(record(deliveryId));
      await deliveries.appendAttempt(deliveryId, {
        attempt: 1,
        at: '2023-11-14T22:13:20.000Z',
        status: 503,
        latency_ms: 41,
        error: null,
        response_body: 'busy\nback "soon"',
      });
      await deliveries.appendAttempt(deliveryId, {
        attempt: 2,
        at: '2023-11-14T22:13:21.000Z',
        status: null,
        latency_ms: 10_000,
        error: 'timeout',
        response_body: null,
      });
      await deliveries.deadLetter(deliveryId, 'attempts_exhausted', '2 attempts, the last: timeout', atMs);
    };

    it('says so when there are no dead letters', async () => {
      expect(await run('list')).to.equal('(no dead letters)');
    });

    it("lists a dead letter with its id, reason, detail, target and every attempt with the receiver's answer on one line", async () => {
      await makeDeadLetter('dlv_conversationOne_3', 1_700_000_001_000);

      const lines = (await run('list')).split('\n');

      expect(lines).to.deep.equal([
        'dlv_conversationOne_3\treason=attempts_exhausted\tconversation=c_conversationOne\tclient=acme\tsend_url=https://hooks.example/acme\tin_reply_to=m-1,m-2',
        '  detail: 2 attempts, the last: timeout',
        '  #1 2023-11-14T22:13:20.000Z status=503 41ms  answer="busy\\nback \\"soon\\""',
        '  #2 2023-11-14T22:13:21.000Z status=- 10000ms timeout',
      ]);
    });

    it('lists the newest dead letters first, up to the limit given', async () => {
      await makeDeadLetter('dlv_old_1', 1_000);
      await makeDeadLetter('dlv_new_2', 2_000);

      const ids = (text: string): string[] =>
        text
          .split('\n')
          .filter((l) => l.startsWith('dlv_'))
          .map((l) => l.split('\t')[0]!);
      expect(ids(await run('list'))).to.deep.equal(['dlv_new_2', 'dlv_old_1']);
      expect(ids(await run('list', '1'))).to.deep.equal(['dlv_new_2']);
    });

    it('queues a dead letter for redelivery', async () => {
      await makeDeadLetter('dlv_conversationOne_3', 1_000);

      expect(await run('replay', 'dlv_conversationOne_3')).to.equal('queued dlv_conversationOne_3 for redelivery');

      expect(added).to.deep.equal([{ name: JOB_NAMES.redeliver, data: { deliveryId: 'dlv_conversationOne_3' } }]);
      expect((await deliveries.get('dlv_conversationOne_3'))?.state).to.equal('pending');
      expect(await run('list')).to.equal('(no dead letters)');
    });

    it('refuses (exit code 1) an unknown id, one that is not dead, and one that was never produced', async () => {
      await expectRejection(run('replay', 'dlv_nothing_0'), /dlv_nothing_0 is not a dead letter/);
      await deliveries.create(record('dlv_alive_1'));
      await expectRejection(run('replay', 'dlv_alive_1'), /dlv_alive_1 is not a dead letter/);
      await deliveries.create({ ...record('dlv_failed_2'), payload: '' });
      await deliveries.deadLetter('dlv_failed_2', 'failed', 'the turn job failed for good: Error: boom', 1_000);
      await expectRejection(run('replay', 'dlv_failed_2'), /never produced/);
      expect(added).to.deep.equal([]);
    });

    it('names the reason of a dead letter that had no attempt (a client that is gone)', async () => {
      await deliveries.create(record('dlv_orphan_1'));
      await deliveries.deadLetter('dlv_orphan_1', 'unknown_client', 'client "acme" is not configured any more', 1_000);
      expect((await run('list')).split('\n')).to.deep.equal([
        'dlv_orphan_1\treason=unknown_client\tconversation=c_conversationOne\tclient=acme\tsend_url=https://hooks.example/acme\tin_reply_to=m-1,m-2',
        '  detail: client "acme" is not configured any more',
        '  (no delivery attempt was made)',
      ]);
    });

    it('answers usage errors with the usage', async () => {
      await expectRejection(run(), /usage: dead-letters list \[limit\] \| replay <delivery_id>/);
      await expectRejection(run('purge'), /usage: dead-letters/);
      await expectRejection(run('replay'), /usage: dead-letters replay <delivery_id>/);
    });
  });
});

async function expectRejection(promise: Promise<unknown>, expected: RegExp | ErrorConstructor): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  expect(error, 'expected a rejection').to.be.instanceOf(Error);
  if (expected instanceof RegExp) expect((error as Error).message).to.match(expected);
  else expect(error).to.be.instanceOf(expected);
}
