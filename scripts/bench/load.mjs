// autocannon, driven from pools of pre-signed bodies (signing is not the service's cost to measure).
import autocannon from 'autocannon';

/**
 * Runs autocannon against POST /custom-im/chat-messages. `next()` gives the next { body, msgId };
 * `onAnswer(msgId, status)` sees every answer. `duration` (s) or `amount` (requests) bounds the run.
 */
export function load(url, next, { connections = 32, duration, amount, overallRate, onAnswer } = {}) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: `${url}/custom-im/chat-messages`, method: 'POST', connections,
      ...(amount !== undefined ? { amount } : { duration: duration ?? 5 }),
      ...(overallRate !== undefined ? { overallRate } : {}),
      timeout: 10,
      headers: { 'content-type': 'application/json' },
      requests: [{
        setupRequest: (req, context) => { const item = next(); context.msgId = item.msgId; return { ...req, body: item.body }; },
        onResponse: (status, _body, context) => onAnswer?.(context.msgId, status),
      }],
    }, (error, result) => (error ? reject(error) : resolve(result)));
    // A run never outlives its bound by much: stop it after twice its expected time (at most 3 min).
    const limitMs = Math.min(180_000, amount !== undefined ? 20_000 + (overallRate ? (amount / overallRate) * 2000 : 120_000) : (duration ?? 5) * 2000 + 5000);
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
