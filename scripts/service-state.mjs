// The state file of a running `npm start` of this checkout (.data/service.json, git-ignored, mode 0600):
// the Redis variables it runs the API and the worker with (REDIS_URL with its password, if any, so the
// file is readable by its owner only) and REDIS_PREFIX, the ids of its CLIENTS (no secrets), and the
// pid of npm start. Written once the API
// is ready, removed on exit. `npm run cli` / `start:api` / `start:worker` (scripts/run-service.mjs) with
// no Redis variable set use it when npm start is still running and its Redis answers; otherwise they
// refuse, never falling back to a Redis that merely answers on the default port.
// DIALOG_RELAY_STATE_FILE names another file (tests).
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { root } from './checkout-prefix.mjs';
import { probe } from './socket-probe.mjs';

export const stateFile = () => process.env.DIALOG_RELAY_STATE_FILE || join(root, '.data', 'service.json');

/** The variables that name the services' Redis and its keys, copied into and out of the state file. */
const REDIS_VARIABLE = /^(REDIS_[A-Z_]+|QUEUE_SHARDS)$/;
/** Any one of these set: the Redis is named by the environment, the state file is not read. */
export const REDIS_MODES = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'];

/**
 * The ids of the clients the services run with from CLIENTS (never their secrets), as the CLI's
 * SERVICE_CLIENTS_VARIABLE: `clients add`/`remove` warn for an id that CLIENTS defines, since
 * the service's registry takes CLIENTS first and never reads a stored client of the same id.
 */
export const SERVICE_CLIENTS_VARIABLE = 'DIALOG_RELAY_SERVICE_CLIENTS';
/** The running API's base URL: `npm run cli -- sign` sends there by default (PORT=8081 npm start, say). */
export const SERVICE_URL_VARIABLE = 'DIALOG_RELAY_URL';
function clientIds(clients) {
  try {
    const parsed = JSON.parse(clients ?? '');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.keys(parsed).join(',') : '';
  } catch {
    return '';
  }
}

export function writeState(env) {
  const file = stateFile();
  mkdirSync(dirname(file), { recursive: true });
  const redis = Object.fromEntries(Object.entries(env).filter(([name, value]) => REDIS_VARIABLE.test(name) && value));
  const ids = clientIds(env.CLIENTS);
  const extra = {
    ...(ids ? { [SERVICE_CLIENTS_VARIABLE]: ids } : {}),
    ...(env[SERVICE_URL_VARIABLE] ? { [SERVICE_URL_VARIABLE]: env[SERVICE_URL_VARIABLE] } : {}),
  };
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, env: { ...redis, ...extra } }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Removes the state file if it is this process's own (a second npm start may have written it since). */
export function removeState() {
  try {
    if (JSON.parse(readFileSync(stateFile(), 'utf8')).pid === process.pid) rmSync(stateFile());
  } catch {
    /* none, or not ours */
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** True when something speaking Redis answers PING at the URL (an error reply, e.g. NOAUTH, is still Redis). */
function answers(url) {
  let target;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  return probe(target.hostname.replace(/^\[|\]$/g, ''), Number(target.port || 6379), {
    timeoutMs: 1000,
    send: 'PING\r\n',
    accept: (text) => /^[+-]/.test(text),
  });
}

/** The Redis variables of this checkout's running npm start, or undefined when none runs (or its Redis does not answer). */
export async function runningServiceEnv() {
  let state;
  try {
    state = JSON.parse(readFileSync(stateFile(), 'utf8'));
  } catch {
    return undefined;
  }
  if (!state || typeof state.env !== 'object' || !Number.isInteger(state.pid) || !alive(state.pid)) return undefined;
  if (state.env.REDIS_URL && !(await answers(state.env.REDIS_URL))) return undefined;
  return state.env;
}

export const NO_REDIS =
  'No REDIS_URL is set and no `npm start` of this checkout is running: start it, or set REDIS_URL to the Redis to use.';
