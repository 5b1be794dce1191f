import { v7 as uuidv7 } from 'uuid';

/**
 * A new delivery id (docs/service-rules.md §15): `dlv_` + a UUIDv7 without dashes + `_s<shard>`. Time-ordered and
 * random, so it is never reused after a Redis reset, a restore or a new deployment; the shard suffix
 * lets its record be found from the id alone (it lives in the conversation's shard). It is chosen
 * once, when a turn takes its messages, and stored with the batch, so retries and crash recoveries keep it.
 */
export const newDeliveryId = (shard: number): string => `dlv_${uuidv7().replaceAll('-', '')}_s${shard}`;
