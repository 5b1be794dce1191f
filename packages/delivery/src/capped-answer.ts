import type { IncomingHttpHeaders } from 'node:http';

/** An HTTP answer whose body was read up to a byte cap. */
export interface CappedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most the cap's worth of the body (as sent: no Accept-Encoding is asked for). */
  body: Buffer;
  /** Set when the body could not be read to the end (the status still counts); null otherwise. */
  readError: unknown;
}
