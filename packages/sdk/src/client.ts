import { DialogRelayError } from './api-error.js';
import {
  ERROR_CODES,
  type Answer,
  type AssistReply,
  type AutoAccepted,
  type AutoMessageInput,
  type Command,
  type CommandAnswers,
  type ErrorCode,
  type EventType,
  type FieldProblem,
  type MessageInput,
  type Participants,
  type SyncReply,
} from './api.types.js';
import { withSignature, type SignatureScheme } from './request-signing.js';

export interface ClientOptions {
  /** The service, e.g. https://relay.example.com or https://gw.example.com/relay (custom-im/chat-messages is added to its path). */
  baseUrl: string;
  client: string;
  secret: string;
  scheme?: SignatureScheme;
  /** Gives up on a request, the answer's body included, after this long (a retryable network_error); default 30000. */
  timeoutMs?: number;
  /** Replaces the global fetch (proxies, tests). */
  fetch?: typeof fetch;
  /** Unix seconds used for `timestamp` and the default create_timestamp. */
  nowS?: () => number;
  /** Extra headers on every request, e.g. X-Request-Id. */
  headers?: Record<string, string>;
}

export interface DialogRelayClient {
  /** assist_dialog: a suggested reply for an agent; msg_id is required. */
  assist(message: MessageInput & { msg_id: string }): Promise<Answer<AssistReply>>;
  /** website_dialog: the reply at once; message and reply are recorded. */
  website(message: MessageInput): Promise<Answer<SyncReply>>;
  /** auto_dialog: accepted with 202; the reply is POSTed to sendUrl (or the client's default) as a signed webhook. */
  auto(message: AutoMessageInput, options?: { sendUrl?: string }): Promise<Answer<AutoAccepted>>;
  /** cmd_dialog: stop, resume or show the auto replies of the participants' conversation. */
  command<C extends Command>(command: C, participants: Participants): Promise<Answer<CommandAnswers[C]>>;
}

/** Relative, so that a baseUrl behind a path prefix (https://gw.example.com/relay) keeps its prefix. */
const PATH = 'custom-im/chat-messages';
const DEFAULT_TIMEOUT_MS = 30_000;

/** A typed client of the Conversation Message API: signs each request and turns error answers into DialogRelayError. */
export function createClient(options: ClientOptions): DialogRelayClient {
  const doFetch = options.fetch ?? fetch;
  const now = options.nowS ?? ((): number => Math.floor(Date.now() / 1000));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const url = new URL(PATH, options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`).toString();

  async function send<T>(eventType: EventType, info: Record<string, unknown>, top: Record<string, unknown> = {}): Promise<Answer<T>> {
    const timestamp = now();
    const signal = AbortSignal.timeout(timeoutMs);
    const body = withSignature(
      {
        client: options.client,
        timestamp,
        ...top,
        message_info: { message_type: 1, create_timestamp: timestamp, ...info, event_type: eventType },
      },
      { secret: options.secret, scheme: options.scheme ?? 'hmac-sha256' },
    );
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { ...options.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      const reason = signal.aborted ? `nothing within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error);
      throw new DialogRelayError('network_error', `No answer from ${url}: ${reason}`, undefined, {}, { cause: error });
    }
    return readAnswer<T>(response);
  }

  return {
    assist: (message) => send<AssistReply>('assist_dialog', { ...message }),
    website: (message) => send<SyncReply>('website_dialog', { ...message }),
    auto: (message, extra = {}) =>
      send<AutoAccepted>('auto_dialog', { ...message }, extra.sendUrl === undefined ? {} : { send_url: extra.sendUrl }),
    command: <C extends Command>(command: C, participants: Participants) =>
      send<CommandAnswers[C]>('cmd_dialog', { ...participants, content: command }),
  };
}

interface EnvelopeShape {
  code?: unknown;
  message?: unknown;
  request_id?: unknown;
  data?: unknown;
  error?: unknown;
  detail?: unknown;
  errors?: unknown;
}

async function readAnswer<T>(response: Response): Promise<Answer<T>> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    // The connection broke while the answer was read: no answer, as when nothing answered.
    const reason = error instanceof Error ? error.message : String(error);
    throw new DialogRelayError(
      'network_error',
      `HTTP ${response.status}, then the connection broke while reading the answer: ${reason}`,
      response.status,
      {
        requestId: response.headers.get('x-request-id') ?? undefined,
      },
      { cause: error },
    );
  }
  let envelope: EnvelopeShape | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) envelope = parsed;
  } catch {
    envelope = undefined;
  }
  const requestId = response.headers.get('x-request-id') ?? (typeof envelope?.request_id === 'string' ? envelope.request_id : '');
  if (envelope === undefined) {
    throw new DialogRelayError('unexpected_response', `HTTP ${response.status} without a JSON envelope.`, response.status, { requestId });
  }
  if (response.ok && typeof envelope.data === 'object' && envelope.data !== null) {
    return {
      status: response.status,
      requestId,
      idempotentReplayed: response.headers.get('idempotent-replayed') === 'true',
      data: envelope.data as T,
    };
  }
  const code =
    typeof envelope.error === 'string' && (ERROR_CODES as readonly string[]).includes(envelope.error)
      ? (envelope.error as ErrorCode)
      : 'unexpected_response';
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  throw new DialogRelayError(code, typeof envelope.message === 'string' ? envelope.message : `HTTP ${response.status}`, response.status, {
    requestId,
    detail: typeof envelope.detail === 'string' ? envelope.detail : undefined,
    errors: Array.isArray(envelope.errors) ? (envelope.errors as FieldProblem[]) : undefined,
    retryAfterS: retryAfter,
  });
}

/** Retry-After in seconds: delay-seconds, or an HTTP date (RFC 9110 §10.2.3, as a proxy in front of the API may send). */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = /^\s*\d+\s*$/.test(header) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}
