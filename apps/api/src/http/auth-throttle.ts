import type { AuthAttempt, AuthThrottle } from '@dialog-relay/chat';
import type { IngressConfig } from '@dialog-relay/config';
import { addressGroup } from '@dialog-relay/net-guard';
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Failed authentications counted in this process's memory (rate-limiter-flexible), per client id
 * and per source address (an IPv6 caller by its /64), over a fixed window. In memory on purpose: a
 * flood of bad signatures costs no Redis round trip, and the throttle works while Redis is down.
 * With N API replicas an attacker gets at most N times the limit.
 */
export function createAuthThrottle(limits: IngressConfig['authFailures']): AuthThrottle {
  const perClient = new RateLimiterMemory({ keyPrefix: 'client', points: limits.perClient, duration: limits.windowS });
  const perAddress = new RateLimiterMemory({ keyPrefix: 'address', points: limits.perAddress, duration: limits.windowS });
  /** Seconds to wait once more than `allowed` failures were counted (`res` after counting one more, or as it stands). */
  const waitS = (res: RateLimiterRes | null | undefined, allowed: number): number | undefined =>
    res != null && res.consumedPoints > allowed ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : undefined;
  const count = (limiter: RateLimiterMemory, key: string): Promise<RateLimiterRes | undefined> =>
    limiter.penalty(key, 1).catch(() => undefined);
  const longest = (waits: (number | undefined)[]): number | undefined => {
    const known = waits.filter((s): s is number => s !== undefined);
    return known.length === 0 ? undefined : Math.max(...known);
  };

  // The per-request check (addressWait) asks the limiter only while an address has failures counted
  // in the window: a process that has seen no failure for `windowS` pays no address parsing and no
  // limiter lookup per request (docs/design/performance.md).
  let failuresUntilMs = 0;
  return {
    async addressWait(sourceAddressOf) {
      if (Date.now() >= failuresUntilMs) return undefined;
      const sourceAddress = sourceAddressOf();
      if (sourceAddress === undefined) return undefined;
      // Refused once `perAddress` failures were counted: the next try is the one over the limit.
      return waitS(await perAddress.get(addressGroup(sourceAddress)), limits.perAddress - 1);
    },
    async failed(attempt: AuthAttempt) {
      failuresUntilMs = Date.now() + limits.windowS * 1000 + 1000;
      const sourceAddress = attempt.sourceAddress();
      const [client, address] = await Promise.all([
        count(perClient, attempt.client),
        sourceAddress === undefined ? undefined : count(perAddress, addressGroup(sourceAddress)),
      ]);
      return longest([waitS(client, limits.perClient), waitS(address, limits.perAddress)]);
    },
  };
}
