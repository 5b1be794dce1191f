// `npm run demo`: starts what it needs (a private redis-server unless REDIS_URL is set, the API and
// a worker in this process, a receiver for the replies) on 127.0.0.1 only, and walks through the
// four scenarios with the SDK: what was sent, what came back, the delivery that arrived and its
// verification, and a stop cancelling a pending reply. Exits 0 when every step behaved as shown.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode } from './node-runtime.mjs';

// On a Node older than 22, the demo runs under Node 24 instead (scripts/node-runtime.mjs).
await ensureNode('supported', (line) => process.stdout.write(`[dialog-relay] ${line}\n`));
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = (path) => import(join(root, path));
const [{ buildApi }, { buildWorker }, { loadConfig }, { createLogger }, sdk, testkit] = await Promise.all([
  load('apps/api/dist/src/index.js'),
  load('apps/worker/dist/src/index.js'),
  load('packages/config/dist/src/index.js'),
  load('packages/logger/dist/src/index.js'),
  load('packages/sdk/dist/src/index.js'),
  load('packages/testkit/dist/src/index.js'),
]);

const DEMO = { client: 'demo', secret: 'demo-secret-not-for-production', webhookSecret: 'whsec_ZGVtby13ZWJob29rLXNlY3JldA==' };
const out = (line = '') => process.stdout.write(`${line}\n`);
const step = (title) => out(`\n── ${title} ${'─'.repeat(Math.max(0, 70 - title.length))}`);
const show = (label, value) => out(`   ${label.padEnd(10)} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
const cleanups = [];
let failures = 0;
const check = (ok, what) => {
  if (!ok) failures += 1;
  out(`   ${ok ? '✔' : '✘'} ${what}`);
};

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

try {
  // REDIS_URL, or else a private redis-server of its own on a free loopback port (never a Redis that
  // happens to run on this machine), removed at the end.
  let redisUrl = process.env.REDIS_URL;
  let redisShown = 'REDIS_URL as set';
  if (!redisUrl) {
    const redis = await testkit.startRedisServer();
    cleanups.push(() => redis.dispose());
    redisUrl = redis.url;
    redisShown = `a private redis-server at ${redis.url}, removed at the end`;
  }
  // The receiver: your send_url, verifying each delivery over its raw body with the SDK.
  const deliveries = [];
  const waiters = [];
  const receiver = createServer(
    sdk.createDeliveryReceiver({
      secret: DEMO.webhookSecret,
      onDelivery: (delivery) => {
        deliveries.push(delivery);
        waiters.splice(0).forEach((wake) => wake());
      },
      onRejected: (failure) => out(`   ✘ receiver refused a delivery: ${failure.reason}: ${failure.message}`),
    }),
  );
  const receiverUrl = `${await listen(receiver)}/hook`;
  cleanups.push(
    () =>
      new Promise((resolve) => {
        receiver.closeAllConnections();
        receiver.close(resolve);
      }),
  );

  const config = loadConfig({
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `demo-${randomUUID().slice(0, 8)}:`,
    LOG_LEVEL: 'error',
    CLIENTS: JSON.stringify({ [DEMO.client]: { secret: DEMO.secret, webhook_secret: DEMO.webhookSecret, allow_private_send_urls: true } }),
    AUTO_REPLY_DEBOUNCE_MS: '1500',
    DELIVERY_TIMEOUT_MS: '3000',
  });
  const logger = createLogger({ level: 'error', service: 'demo', silent: true });
  const api = await buildApi(config, logger);
  await api.ready(5000);
  const server = createServer(api.app);
  const baseUrl = await listen(server);
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
  });
  const worker = await buildWorker(config, logger);
  cleanups.push(() => worker.close());
  await Promise.all(worker.workers.map((w) => w.waitUntilReady()));

  out(`dialog-relay demo — API ${baseUrl}, a worker, and your receiver ${receiverUrl} (everything on 127.0.0.1)`);
  out(`Redis: ${redisShown}`);
  out(`client "${DEMO.client}", requests signed with hmac-sha256, deliveries verified with ${DEMO.webhookSecret}`);
  const relay = sdk.createClient({ baseUrl, client: DEMO.client, secret: DEMO.secret });

  step('1. assist_dialog: a suggested reply for a human agent');
  const question = {
    msg_id: `demo-${randomUUID().slice(0, 8)}`,
    from_user_id: 'customer-1',
    to_user_id: 'agent-1',
    content: 'When are you open?',
  };
  show('sent', question);
  const assist = await relay.assist(question);
  show('answer', `${assist.status} ${JSON.stringify(assist.data.content)}`);
  check(assist.status === 200 && assist.data.content.length > 0, 'a suggestion came back (recorded: the question, not the suggestion)');

  step('2. website_dialog: a web chat visitor answered at once');
  const visitor = { from_user_id: 'visitor-1', to_user_id: 'site-bot', content: 'How long does delivery take?' };
  show('sent', visitor);
  const website = await relay.website(visitor);
  show('answer', `${website.status} ${JSON.stringify(website.data.content)}`);
  check(website.status === 200, 'the reply came back in the response');

  step('3. auto_dialog: the reply is POSTed to your send_url');
  const customer = { from_user_type: 2, from_user_id: 'customer-2', to_user_id: 'shop-account', content: 'Can I return my order?' };
  show('sent', { ...customer, send_url: receiverUrl });
  const accepted = await relay.auto(customer, { sendUrl: receiverUrl });
  show('answer', `${accepted.status} ${JSON.stringify(accepted.data)}`);
  const arrived = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no delivery within 15 s')), 15_000);
    const look = () => (deliveries.length > 0 ? (clearTimeout(timer), resolve(deliveries[0])) : waiters.push(look));
    look();
  });
  show('delivered', `webhook-id ${arrived.id}`);
  show('body', arrived.rawBody.toString('utf8'));
  check(
    arrived.payload.in_reply_to.includes(accepted.data.msg_id),
    'verified: a v1 signature over the raw body matches, the timestamp is fresh, it answers our message',
  );

  step('4. cmd_dialog: stop cancels a pending reply, status, resume');
  const people = { from_user_id: 'customer-3', to_user_id: 'shop-account' };
  const pending = await relay.auto({ ...people, from_user_type: 2, content: 'Hello? Anyone there?' }, { sendUrl: receiverUrl });
  show('queued', JSON.stringify(pending.data));
  const conversation = { from_user_id: 'shop-account', to_user_id: 'customer-3' };
  const stop = await relay.command('stop_auto_reply', conversation);
  show('stop', JSON.stringify(stop.data));
  check(stop.data.cancelled === 1, 'the reply still waiting in its debounce window was cancelled');
  const status = await relay.command('auto_reply_status', conversation);
  show('status', JSON.stringify({ auto_reply: status.data.auto_reply, pending: status.data.pending }));
  const suppressed = await relay.auto({ ...people, from_user_type: 2, content: 'Still there?' }, { sendUrl: receiverUrl });
  check(suppressed.data.status === 'suppressed', 'a message while stopped is recorded, not answered');
  const resume = await relay.command('resume_auto_reply', conversation);
  show('resume', JSON.stringify(resume.data));
  // Long enough for a reply that was not cancelled to arrive (debounce 1.5 s + engine + POST).
  await new Promise((resolve) => setTimeout(resolve, 2500));
  check(deliveries.length === 1, `no delivery reached the stopped conversation (${deliveries.length} delivery in total)`);

  step('errors are typed');
  try {
    await sdk.createClient({ baseUrl, client: DEMO.client, secret: 'a-wrong-secret-000' }).website(visitor);
    check(false, 'a wrong secret was refused');
  } catch (error) {
    show('error', `${error.status} ${error.code}: ${error.message}`);
    check(error.code === 'invalid_signature', 'a wrong secret is refused with 401 invalid_signature');
  }
  out(`\n${failures === 0 ? 'demo finished: every step behaved as shown' : `demo finished with ${failures} unexpected result(s)`}`);
} catch (error) {
  failures += 1;
  out(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
process.exit(failures === 0 ? 0 : 1);
