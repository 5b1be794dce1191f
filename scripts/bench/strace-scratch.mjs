import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { load, pool } from './load.mjs';
import { killAll, serviceEnv, startApi, stop } from './processes.mjs';
import { startReceiver } from './receiver.mjs';
import { clientsEnv, createSigner, loadMessages } from './traffic.mjs';
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const { signRequestBody } = await import(join(root, 'packages/signing/dist/src/index.js'));
const { startRedisServer } = await import(join(root, 'packages/testkit/dist/src/index.js'));
const SCEN = process.env.SCEN ?? 'cmd_dialog';
const receiver = await startReceiver();
const redis = await startRedisServer();
try {
  const sign = createSigner(signRequestBody, loadMessages(root), 'p');
  const env = serviceEnv({ url: redis.url }, { REDIS_PREFIX: `s-${randomUUID().slice(0, 6)}:`, CLIENTS: clientsEnv(receiver.base) });
  const api = await startApi(root, env, []);
  const opts = SCEN === 'cmd_dialog' ? { content: 'auto_reply_status' } : SCEN === 'auto_dialog' ? { sendUrl: `${receiver.base}/hook` } : {};
  await load(api.url, pool(3000, (i) => sign(SCEN, { ...opts, customer: `w-${i}` })), { duration: 2 });
  const st = spawn('strace', ['-c', '-f', '-p', String(api.child.pid), '-o', '/tmp/strace-out.txt'], { stdio: 'inherit' });
  await new Promise((r) => setTimeout(r, 500));
  const res = await load(api.url, pool(3000 * 4, (i) => sign(SCEN, { ...opts, customer: `x-${i % 3000}` })), { duration: 4 });
  st.kill('SIGINT');
  await new Promise((r) => st.on('exit', r));
  console.log(SCEN, 'requests', res.requests.total ?? res['2xx'], '2xx', res['2xx']);
  await stop(api.child);
} finally { killAll(); await receiver.close(); await redis.dispose(); }
