import type { ClientSettings } from '@dialog-relay/config';
import { AppError, leadingErrorCode, type Command, type EventType } from '@dialog-relay/contracts';
import type { Admission, AdmissionResult, StoredAnswer } from '@dialog-relay/admission';
import type { Logger } from '@dialog-relay/logger';
import type { RequestValidator } from '@dialog-relay/contracts';
import type { AuthAttempt, AuthThrottle, SourceAddress } from './auth-throttle.js';
import { authenticate } from './authenticate.js';
import { enforceMd5Reach } from './md5-reach.js';
import type { ClientLookup, RunScriptParts, ScriptCall } from './ports.js';
import { assistDialog } from './scenarios/assist-dialog.js';
import { autoDialog } from './scenarios/auto-dialog.js';
import { cmdDialog, replayedCmdData } from './scenarios/cmd-dialog.js';
import type { ReplayedData, Scenario, ScenarioDeps, ScenarioResult } from './scenarios/scenario.js';
import { websiteDialog } from './scenarios/website-dialog.js';
import { resolveSendUrl, type SendUrlChecker } from './send-url.js';

export interface ChatServiceDeps extends ScenarioDeps {
  validate: RequestValidator;
  findClient: ClientLookup;
  admission: Admission;
  checkSendUrl: SendUrlChecker;
  timestampToleranceS: number;
  /** Failed-authentication throttle (docs/service-rules.md §16); none: unthrottled. */
  authThrottle?: AuthThrottle;
  /** Resolves once conversation keys may be touched (the shard count checked); rejects with the reason otherwise. */
  ready?: () => Promise<void>;
  /** Runs the parts of one phase of a request as one script (docs/design/lua-scripts.md "Composed scripts"). */
  runParts: RunScriptParts;
}

export interface ChatOutcome {
  status: number;
  /** The request id of the answer: the first request's when the answer is an idempotent replay. */
  requestId: string;
  data: unknown;
  idempotentReplay: boolean;
  conversationId: string | undefined;
  client: string;
  eventType: EventType;
  /** The cmd_dialog command (undefined for the other scenarios). */
  command: Command | undefined;
}

export interface ChatService {
  /** Runs the whole pipeline for one parsed body; throws AppError for every refusal. */
  /** `shapeChecked`: the raw bytes were held to the body-shape limits before parsing (the validator does not walk the body again). */
  handle(
    body: Readonly<Record<string, unknown>>,
    context: { requestId: string; logger: Logger; sourceAddress?: SourceAddress; shapeChecked?: boolean },
  ): Promise<ChatOutcome>;
}

/** A caller whose address is not known (a test, a caller outside HTTP). */
const NO_ADDRESS: SourceAddress = () => undefined;

const SCENARIOS: Record<EventType, Scenario> = {
  assist_dialog: assistDialog,
  website_dialog: websiteDialog,
  cmd_dialog: cmdDialog,
  auto_dialog: autoDialog,
};

/** Scenarios whose stored answers are rendered again for a replay (cmd_dialog's status stores its reads). */
const REPLAYED: Partial<Record<EventType, ReplayedData>> = { cmd_dialog: replayedCmdData };

export function createChatService(deps: ChatServiceDeps): ChatService {
  const refuse = (client: ClientSettings, result: Exclude<AdmissionResult, { kind: 'admitted' | 'idempotent' }>): never => {
    switch (result.kind) {
      case 'rate_limited':
        throw new AppError('rate_limited', `Too many requests for client ${client.id} (limit ${client.rateLimitPerS}/s).`, {
          retryAfterS: result.retryAfterS,
        });
      case 'replayed':
        throw new AppError('replayed_request', 'This exact signed request was already received.', {
          detail: 'Sign every request afresh (new timestamp); a request with a msg_id is answered idempotently instead.',
        });
      case 'in_progress':
        throw new AppError('request_in_progress', 'A request with this msg_id is still being processed.', { retryAfterS: 1 });
    }
  };

  return {
    async handle(body, context) {
      const validation = deps.validate(body, { shapeChecked: context.shapeChecked === true });
      if (!validation.ok) {
        const code = leadingErrorCode(validation.errors);
        const first = validation.errors.find((e) => e.code === code) ?? validation.errors[0];
        throw new AppError(code, first?.message ?? 'The request is not valid.', { errors: validation.errors });
      }
      const { value: request, command } = validation;
      const info = request.message_info;
      const attempt = { client: request.client, sourceAddress: context.sourceAddress ?? NO_ADDRESS };
      const waitS = await deps.authThrottle?.addressWait(attempt.sourceAddress);
      if (waitS !== undefined) {
        throw new AppError('rate_limited', 'Too many failed authentications from this address; wait before retrying.', {
          retryAfterS: waitS,
        });
      }
      const client = await deps.findClient(request.client);
      const hasMsgId = info.msg_id !== undefined && info.msg_id !== '';
      const replayDigest = await authenticateCounted(deps.authThrottle, attempt, () =>
        authenticate({ body, request, client, nowMs: deps.nowMs(), toleranceS: deps.timestampToleranceS, replayDigest: !hasMsgId }),
      );
      if (!client) throw new AppError('invalid_signature', 'The signature does not match this client and body.');
      enforceMd5Reach(client, info.event_type, validation.sendUrl);
      const sendUrl = info.event_type === 'auto_dialog' ? await resolveSendUrl(validation.sendUrl, client, deps.checkSendUrl) : undefined;

      const callerMsgId = hasMsgId ? info.msg_id : undefined;
      const idempotency = callerMsgId === undefined ? undefined : { client: client.id, eventType: info.event_type, msgId: callerMsgId };
      const logger = context.logger.child({ client: client.id, event_type: info.event_type });
      const msgId = callerMsgId ?? deps.newId();
      await deps.ready?.();
      // docs/design/performance.md "Command budgets": admission and the scenario's reads are one script; the
      // scenario's writes and the idempotent answer one more (none when there is nothing to write). A
      // scenario that can finish without its reads (auto_dialog, stop, resume, a website_dialog reply
      // from the message alone) has its writes in admission's script: one in all; so has a status with
      // a msg_id, whose answer, made from its reads alone, is stored with them.
      const answerInReads = idempotency !== undefined && deps.admission.answersInFirstScript;
      const started = SCENARIOS[info.event_type](deps, { request, client, msgId, sendUrl, command, logger, answerInReads });
      const admitInput = { client: client.id, ratePerS: client.rateLimitPerS, nowMs: deps.nowMs(), replayDigest, idempotency };
      const answerOf = (result: Pick<ScenarioResult, 'status' | 'data'>): StoredAnswer => ({
        status: result.status,
        request_id: context.requestId,
        data: result.data,
      });
      const early = started.finishEarly ? await started.finishEarly() : undefined;
      // a scenario finished early reads nothing
      const reads = early ? [] : started.reads;
      // an answer made from the reads alone is stored by the reads' script (answerInReads)
      const kept = answerInReads && !early ? started.answerOfReads : undefined;
      const earlyAnswer = early ? answerOf(early) : kept && answerOf(kept);
      const earlyWrites: readonly ScriptCall[] =
        early && earlyAnswer
          ? writeCalls(deps.admission, client.id, idempotency, early, earlyAnswer)
          : kept && earlyAnswer
            ? [deps.admission.completeStep(client.id, idempotency, earlyAnswer, kept.outcome)]
            : [];
      // Started before the request's first write (the script that may admit and write): confirmed only once written.
      const earlyReplicated = earlyWrites.length > 0 && early?.replicated ? deps.replication?.begin() : undefined;
      let replies: unknown[];
      try {
        // with the writes in this call, so is the idempotent answer (writeCalls): admission need not claim the msg_id first
        replies = await deps.runParts([deps.admission.admitStep(admitInput, earlyWrites.length > 0), ...reads, ...earlyWrites]);
      } catch (error) {
        // The writes ran with admission: a claim this request made is given back, as when writes fail below.
        if (earlyWrites.length > 0 && idempotency) await deps.admission.release(idempotency, earlyAnswer).catch(() => undefined);
        throw error;
      }
      const [admitReply, ...readReplies] = replies;
      const admitted = deps.admission.admitted(admitReply);
      const base = { client: client.id, eventType: info.event_type, command };
      if (admitted.kind === 'idempotent') {
        const stored = admitted.answer;
        const replayed = REPLAYED[info.event_type];
        const data = (replayed ? await replayed(deps, stored.data) : stored.data) as { conversation_id?: string } | undefined;
        return {
          ...base,
          status: stored.status,
          requestId: stored.request_id,
          data,
          idempotentReplay: true,
          conversationId: data?.conversation_id,
        };
      }
      // (admission halts its script: a refused request wrote nothing)
      if (admitted.kind !== 'admitted') refuse(client, admitted);

      let answer: StoredAnswer | undefined = earlyAnswer;
      try {
        const result = early ?? (await started.finish(readReplies));
        answer ??= answerOf(result);
        // the writes: run with admission (their results follow the reads'), or in a script of their own now
        const inFirst = early !== undefined || kept !== undefined;
        const writes = inFirst ? earlyWrites : writeCalls(deps.admission, client.id, idempotency, result, answer);
        let data = result.data;
        if (writes.length > 0) {
          const replicated = early ? earlyReplicated : result.replicated ? deps.replication?.begin() : undefined;
          data = await result.settle(inFirst ? readReplies.slice(reads.length) : await deps.runParts(writes));
          await replicated?.confirm();
        }
        // reads too long to keep (STATUS_KEPT_MAX_BYTES): the script claimed the msg_id instead, and the answer as sent is stored now
        if (kept && idempotency && readReplies[reads.length] === 0) await deps.admission.complete(idempotency, answerOf(result));
        return {
          ...base,
          status: result.status,
          requestId: context.requestId,
          data,
          idempotentReplay: false,
          conversationId: result.conversationId,
        };
      } catch (error) {
        if (idempotency) await deps.admission.release(idempotency, answer).catch(() => undefined);
        throw error;
      }
    },
  };
}

/** A scenario's writes and, for a request with a msg_id, the idempotent answer after them (none: nothing to run). */
function writeCalls(
  admission: Admission,
  client: string,
  idempotency: Parameters<Admission['completeStep']>[1],
  result: ScenarioResult,
  answer: StoredAnswer,
): readonly ScriptCall[] {
  return idempotency ? [...result.writes, admission.completeStep(client, idempotency, answer, result.outcome)] : result.writes;
}

/**
 * Runs the signature check and counts an invalid signature (unknown client included) as a failure.
 * A failure over the client id's or the address's limit is answered 429 instead of 401; a valid
 * signature goes through whatever others sent in this client's name.
 */
async function authenticateCounted(throttle: AuthThrottle | undefined, attempt: AuthAttempt, check: () => string): Promise<string> {
  try {
    return check();
  } catch (error) {
    if (!throttle || !(error instanceof AppError) || error.code !== 'invalid_signature') throw error;
    const waitS = await throttle.failed(attempt);
    if (waitS === undefined) throw error;
    throw new AppError('rate_limited', 'Too many failed authentications for this client or from this address; wait before retrying.', {
      retryAfterS: waitS,
    });
  }
}
