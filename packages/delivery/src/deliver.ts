import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import {
  checkSendUrlStatically,
  createGuardedLookup,
  type AddressPolicy,
  type Resolver,
  type StaticSendUrlVerdict,
} from '@dialog-relay/net-guard';
import { webhookHeaders, type WebhookKey } from '@dialog-relay/signing';
import { describeAttemptError } from './attempt-error.js';
import { classifyStatus, failedOutcome, MAX_RESPONSE_BODY_BYTES, type AttemptOutcome } from './outcome.js';
import { parseRetryAfter } from './retry-after.js';
import { HeldBackError, postForAnswer, type CappedAnswer } from './post-answer.js';

export interface DeliveryRequest {
  url: string;
  /** The JSON body, signed and sent as is. */
  body: string;
  /** webhook-id: the same on every retry, so receivers can deduplicate. */
  deliveryId: string;
  /** webhook-timestamp, unix seconds. */
  timestampS: number;
  /** webhookSigningKey(client secret), or the same prepared once for the HMAC (webhookHmacKey). */
  signingKey: WebhookKey;
  timeoutMs: number;
  /** Aborts the attempt (a stop or a human's message): the connection is closed at once. */
  signal?: AbortSignal;
  /** The client's allow_private_send_urls: opens loopback and private targets for this request only. */
  allowPrivate?: boolean;
  /**
   * Asked once the connection to the receiver is open, right before the request is written; false
   * ends the attempt with nothing sent (a stop that came while the host resolved or the connection
   * opened, docs/design/reply-protocol.md "Stop, resume, status"). A rejection ends it unsent too, retryable.
   */
  beforeSend?: () => Promise<boolean>;
}

/** The error of an attempt that beforeSend held back: no byte of the request was written. */
export const NOT_SENT = 'cancelled before the request was sent';

export interface Deliverer {
  /** One attempt; never throws: every failure is an AttemptOutcome. */
  deliver(request: DeliveryRequest): Promise<AttemptOutcome>;
  /** Destroys the keep-alive agents and their sockets. */
  close(): void;
}

export interface DelivererOptions {
  /** Address policy; true only for tests and local demos. */
  allowPrivate: boolean;
  userAgent: string;
  /** Host name resolver for the connect-time guard (tests); the system resolver by default. */
  resolve?: Resolver;
}

/** One POST per attempt (node:http, post-answer.ts), through keep-alive agents whose connections only go to checked addresses. */
export function createDeliverer(options: DelivererOptions): Deliverer {
  const guards = {
    strict: guardedTransport({ allowPrivate: options.allowPrivate }, options.resolve),
    lenient: guardedTransport({ allowPrivate: true }, options.resolve),
  };

  async function deliver(request: DeliveryRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const { policy, lookup, agents } = request.allowPrivate === true ? guards.lenient : guards.strict;
    try {
      const checked = checkSendUrlStatically(request.url, policy);
      if (!checked.ok) return failedOutcome('permanent', refusal(checked), elapsed());
      const signed = webhookHeaders({
        key: request.signingKey,
        id: request.deliveryId,
        timestamp: request.timestampS,
        body: request.body,
      });
      const answer = await postForAnswer({
        url: checked.url,
        body: request.body,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(request.body),
          'user-agent': options.userAgent,
          ...signed,
        },
        agents,
        lookup,
        timeoutMs: request.timeoutMs,
        capBytes: MAX_RESPONSE_BODY_BYTES,
        signal: request.signal,
        beforeSend: request.beforeSend,
      });
      return answerOutcome(answer, elapsed());
    } catch (err: unknown) {
      if (err instanceof HeldBackError) return failedOutcome('permanent', NOT_SENT, elapsed());
      const verdict = describeAttemptError(err);
      return failedOutcome(verdict.kind, verdict.error, elapsed());
    }
  }

  return {
    deliver,
    close: () => {
      for (const { agents } of [guards.strict, guards.lenient]) {
        agents.http.destroy();
        agents.https.destroy();
      }
    },
  };
}

/** Keep-alive agents whose connections only go to addresses the policy allows. */
function guardedTransport(policy: AddressPolicy, resolve: Resolver | undefined) {
  const lookup = createGuardedLookup(policy, resolve ? { resolve } : {});
  return {
    policy,
    lookup,
    agents: {
      http: new http.Agent({ keepAlive: true, maxSockets: 256, lookup }),
      https: new https.Agent({ keepAlive: true, maxSockets: 256, lookup }),
    },
  };
}

/** A refusal of the checks that need no connection, in net-guard's words: node skips `lookup` for IP literals. */
function refusal(checked: Exclude<StaticSendUrlVerdict, { ok: true }>): string {
  return checked.problem === 'forbidden' ? `send_url_forbidden: ${checked.range}` : `invalid_send_url: ${checked.reason}`;
}

function answerOutcome(answer: CappedAnswer, latencyMs: number): AttemptOutcome {
  const kind = classifyStatus(answer.status);
  const retryAfter = answer.headers['retry-after'];
  return {
    kind,
    status: answer.status,
    error: answer.readError === null ? null : describeAttemptError(answer.readError).error,
    latencyMs,
    retryAfterMs: kind === 'retry' ? parseRetryAfter(retryAfter, Date.now()) : null,
    // write() without end() withholds a multi-byte character cut by the byte cap.
    responseBody: new StringDecoder('utf8').write(answer.body),
  };
}
