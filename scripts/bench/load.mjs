// autocannon, driven from pools of pre-signed bodies (signing is not the service's cost to measure).
import autocannon from 'autocannon';
import http from 'node:http';

/**
 * Runs autocannon against POST /custom-im/chat-messages. `next()` gives the next { body, msgId };
 * `onAnswer(msgId, status)` sees every answer. `duration` (s) or `amount` (requests) bounds the run.
 */
export function load(url, next, { connections = 32, duration, amount, overallRate, onAnswer } = {}) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}/custom-im/chat-messages`,
        method: 'POST',
        connections,
        ...(amount !== undefined ? { amount } : { duration: duration ?? 5 }),
        ...(overallRate !== undefined ? { overallRate } : {}),
        timeout: 10,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req, context) => {
              const item = next();
              context.msgId = item.msgId;
              return { ...req, body: item.body };
            },
            onResponse: (status, _body, context) => onAnswer?.(context.msgId, status),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    // A run never outlives its bound by much: stop it after twice its expected time (at most 3 min).
    const limitMs = Math.min(
      180_000,
      amount !== undefined ? 20_000 + (overallRate ? (amount / overallRate) * 2000 : 120_000) : (duration ?? 5) * 2000 + 5000,
    );
    const guard = setTimeout(() => instance.stop(), limitMs);
    instance.on('done', () => clearTimeout(guard));
  });
}

/** The error count of an autocannon result: transport errors, time-outs and answers outside 2xx. */
export const failures = (result) => result.errors + result.timeouts + result.non2xx;

/** A pool of `size` signed bodies made by `make(i)`; past its end it signs on demand. */
export function pool(size, make) {
  const items = Array.from({ length: size }, (_, i) => make(i));
  let i = 0;
  return () => (i < items.length ? items[i++] : make(i++));
}

/**
 * Sends `amount` requests at an even `rate`/s (request i at t0 + i/rate, not waiting for answers),
 * as the raw latency baseline adds its jobs. autocannon's own rate limit is no use for latency: each
 * connection sends its share of a second back to back when the second begins, so the "rate" arrives
 * as one burst per second and the burst's queueing is measured. Requests go through node:http on a
 * keep-alive agent: `fetch` cost the bench's own process about twice the CPU per request (600-700
 * against 300-340 µs at 500/s, measured against bare Express), CPU the two cores then lacked for
 * the processes measured. Resolves with autocannon's error counts' shape ({ errors, timeouts, non2xx }).
 */
export async function paced(url, next, { rate, amount, onAnswer }) {
  const counts = { errors: 0, timeouts: 0, non2xx: 0 };
  const target = new URL(`${url}/custom-im/chat-messages`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const send = (body) =>
    new Promise((resolve, reject) => {
      const request = http.request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.once('end', () => resolve(response.statusCode ?? 0));
          response.once('error', reject);
        },
      );
      request.setTimeout(10_000, () => request.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })));
      request.once('error', reject);
      request.end(body);
    });
  const sent = [];
  const t0 = performance.now();
  for (let i = 0; i < amount; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const { body, msgId } = next();
    sent.push(
      send(body).then(
        (status) => {
          if (status < 200 || status > 299) counts.non2xx += 1;
          onAnswer?.(msgId, status);
        },
        (error) => {
          if (error?.name === 'TimeoutError') counts.timeouts += 1;
          else counts.errors += 1;
        },
      ),
    );
  }
  await Promise.all(sent);
  agent.destroy();
  return counts;
}
