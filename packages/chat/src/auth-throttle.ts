/**
 * The caller's address, read only when asked: working it out (Express's `req.ip` walks X-Forwarded-For
 * and the trusted proxies) is skipped on every request while no failure is counted (docs/design/performance.md).
 */
export type SourceAddress = () => string | undefined;

/** Who failed to authenticate: the client id the body names and the caller's address. */
export interface AuthAttempt {
  client: string;
  sourceAddress: SourceAddress;
}

/**
 * docs/service-rules.md §16: failed authentication is rate-limited per source address and per client id.
 * An address that failed too often is refused before any signature work (`addressWait`). A client
 * id that failed too often is not: anyone can send failures naming it, so its requests are still
 * verified and a valid one goes through; only its failures are answered 429 (`failed`).
 */
export interface AuthThrottle {
  /** Seconds to wait when this address has failed too often (the caller answers 429 before verifying). */
  addressWait(sourceAddress: SourceAddress): Promise<number | undefined>;
  /**
   * Counts one failure for the client id and the address; resolves with the seconds to wait when
   * either was already at its limit (the caller answers 429 instead of 401).
   */
  failed(attempt: AuthAttempt): Promise<number | undefined>;
}
