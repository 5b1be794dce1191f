import { startReceiver, type Receiver, type Responder } from './receiver.js';
import { startSystem, type System } from './system.js';

/** What startSystem takes: the number of worker processes, env overrides, the Redis to use. */
export type SystemOptions = Parameters<typeof startSystem>[0];

/** The system and receiver of one describe block, running from its `before` hook to its `after` hook. */
export interface SuiteSystem {
  readonly system: System;
  readonly receiver: Receiver;
}

/**
 * Registers on the calling describe block a `before` hook that starts a receiver (answering with
 * `responder`, 200 when none is given) and then the system (`startSystem(options)`), and an `after`
 * hook that closes the system and then the receiver (either one only if it was started). Call it
 * while the describe block is defined; read `system` and `receiver` through the returned object in
 * hooks and tests: reading one before the `before` hook started it throws.
 */
export function suiteSystem(options: SystemOptions, responder?: Responder): SuiteSystem {
  let system: System | undefined;
  let receiver: Receiver | undefined;
  before(async () => {
    receiver = await startReceiver(responder);
    system = await startSystem(options);
  });
  after(async () => {
    await system?.close();
    await receiver?.close();
  });
  return {
    get system(): System {
      if (system === undefined) throw new Error('the suite system is started in its before hook: read it in a hook or test');
      return system;
    },
    get receiver(): Receiver {
      if (receiver === undefined) throw new Error('the suite receiver is started in its before hook: read it in a hook or test');
      return receiver;
    },
  };
}
