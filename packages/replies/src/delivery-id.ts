import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** How many ids' random bytes one call to the system's random source fills. */
const IDS_PER_FILL = 256;
const pool = new Uint8Array(16 * IDS_PER_FILL);
let used = IDS_PER_FILL;
/** The last id's time and counter: ids made in one millisecond count up from a random start, as uuid's own state does. */
let lastMs = -1;
let seq = 0;

/**
 * The 16 random bytes of the next id, from a pool filled IDS_PER_FILL ids at a time: uuid's own
 * source asks the system for 16 bytes per id, which cost the worker about 2 % of its CPU per reply
 * (a reply makes the id of the turn that may follow it).
 */
function randomBytes16(): Uint8Array {
  if (used === IDS_PER_FILL) {
    randomFillSync(pool);
    used = 0;
  }
  used += 1;
  return pool.subarray(16 * (used - 1), 16 * used);
}

/** How a delivery id ends: the shard of its conversation (`_s7`), as RedisKeys reads it back. */
export const deliveryShardSuffix = (shard: number): string => `_s${shard}`;

/**
 * A new delivery id (docs/service-rules.md §15): `dlv_` + a UUIDv7 without dashes + `_s<shard>`. Time-ordered and
 * random, so it is never reused after a Redis reset, a restore or a new deployment; the shard suffix
 * lets its record be found from the id alone (it lives in the conversation's shard). It is chosen
 * once, when a turn takes its messages, and stored with the batch, so retries and crash recoveries keep it.
 */
export function newDeliveryId(shard: number): string {
  const random = randomBytes16();
  const now = Date.now();
  if (now > lastMs) {
    // a new millisecond: the counter starts from 31 random bits (RFC 9562 §6.2, method 1)
    lastMs = now;
    seq = (((random[6] ?? 0) & 0x7f) << 24) | ((random[7] ?? 0) << 16) | ((random[8] ?? 0) << 8) | (random[9] ?? 0);
  } else {
    seq = (seq + 1) | 0;
    // the counter ran over: borrow the next millisecond, so ids still sort in the order they were made
    if (seq === 0) lastMs += 1;
  }
  return `dlv_${uuidv7({ random, msecs: lastMs, seq }).replaceAll('-', '')}${deliveryShardSuffix(shard)}`;
}
