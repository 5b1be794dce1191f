import { AUTO_DIALOG_STATUSES } from '../auto-dialog-status.js';
import {
  AUTO_REPLY_STATES,
  AUTO_REPLY_STATUS_FIELDS,
  PENDING_REPLIES_FIELDS,
  PENDING_REPLY_STATES,
  type AutoReplyStatusView,
  type PendingReplies,
} from '../auto-reply-status.js';
import {
  RESUME_ANSWER_FIELDS,
  STOP_ANSWER_FIELDS,
  type ResumeAnswerData,
  type StatusAnswerData,
  type StopAnswerData,
} from '../command-answers.js';
import { COMMANDS } from '../commands.js';
import {
  DELIVERY_MESSAGE_INFO_FIELDS,
  DELIVERY_PAYLOAD_FIELDS,
  DELIVERY_PAYLOAD_TYPE,
  type DeliveryMessageInfo,
  type DeliveryPayload,
} from '../delivery-payload.js';
import {
  DEAD_LETTER_REASONS,
  DELIVERY_ATTEMPT_FIELDS,
  DELIVERY_STATES,
  DELIVERY_VIEW_FIELDS,
  type DeliveryAttemptView,
  type DeliveryView,
} from '../delivery-view.js';
import { ERROR_STATUS } from '../error-codes.js';
import { MAX_LISTED_ERRORS } from '../envelope.types.js';
import { FILE_TYPES } from '../message.types.js';
import { ASSIST_REPLY_FIELDS, SYNC_REPLY_FIELDS, type AssistReplyData, type SyncReplyData } from '../sync-replies.js';

/**
 * JSON Schemas (2020-12, the dialect of OpenAPI 3.1) of what the API answers and what it POSTs to
 * send_url. Data objects are closed (additionalProperties: false) so that a member added to an
 * answer without being described here fails the HTTP tests that check answers against the document.
 */
type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const closed = (required: string[], properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
  ...(description ? { description } : {}),
});

const conversationId = {
  type: 'string',
  description: 'Opaque, stable id of the conversation (client + group, or the pair of participants).',
};
const stringList = { type: 'array', items: { type: 'string' } };
/** docs/service-rules.md §17: every reply says whether it hands off, and which knowledge entries it rests on. */
const handoff = {
  type: 'boolean',
  description:
    "True when the reply hands the conversation to a person: nothing in the client's knowledge answers (the reply is the fallback text), or the engine failed.",
};
const sources = {
  ...stringList,
  description: 'Ids of the knowledge entries the reply rests on; empty for a handoff, a greeting, or an engine without knowledge.',
};

/** The properties of a synchronous reply (website_dialog's answer; assist_dialog's adds context_reused); `msgId` describes its msg_id. */
const syncReplyProperties = (msgId: string) => ({
  conversation_id: conversationId,
  msg_id: { type: 'string', description: msgId },
  in_reply_to: stringList,
  content: { type: 'array', items: ref('ReplyPart') },
  handoff,
  sources,
});

/** The properties of a shape contracts defines: the compiler holds them to its fields (none missing, none extra). */
type PropertiesOf<T> = { [K in keyof T]-?: Schema };

export function responseSchemas(): Record<string, Schema> {
  return {
    ReplyPart: closed(['type', 'content'], {
      type: { type: 'string', enum: ['text', ...FILE_TYPES] },
      content: { type: 'string', description: 'The text, or the file as a URL or base64.' },
    }),
    FieldError: closed(['path', 'code', 'message'], {
      path: { type: 'string', description: 'JSON Pointer into the request body, e.g. /message_info/quote/msg_id.' },
      code: {
        type: 'string',
        description: "The rule's error code, or the JSON Schema keyword (type, enum, maxLength …) for invalid_request.",
      },
      message: { type: 'string' },
    }),
    ErrorCode: { type: 'string', enum: Object.keys(ERROR_STATUS), description: 'Stable machine code of an error answer.' },
    ErrorEnvelope: closed(['code', 'message', 'request_id', 'error'], {
      code: { type: 'integer', description: 'The HTTP status, repeated.' },
      message: { type: 'string' },
      request_id: { type: 'string' },
      error: ref('ErrorCode'),
      detail: {
        type: 'string',
        description: 'Help for the integrator; for invalid_signature the strings the server signed (never a secret).',
      },
      errors: {
        type: 'array',
        maxItems: MAX_LISTED_ERRORS,
        items: ref('FieldError'),
        description: 'Every field problem found (at most 50).',
      },
      errors_truncated: { const: true },
    }),
    AssistData: closed(
      [...ASSIST_REPLY_FIELDS.required],
      {
        ...syncReplyProperties("The suggestion's id."),
        context_reused: { type: 'boolean', description: 'True when the msg_id was seen in auto_dialog and that conversation was used.' },
      } satisfies PropertiesOf<AssistReplyData>,
      'assist_dialog: a suggested reply (not recorded).',
    ),
    WebsiteData: closed(
      [...SYNC_REPLY_FIELDS.required],
      syncReplyProperties("The reply's id.") satisfies PropertiesOf<SyncReplyData>,
      'website_dialog: the reply, recorded with the message.',
    ),
    AutoData: closed(
      ['conversation_id', 'msg_id', 'status'],
      {
        conversation_id: conversationId,
        msg_id: { type: 'string' },
        status: {
          type: 'string',
          enum: [...AUTO_DIALOG_STATUSES],
          description: 'queued: a reply will be delivered to send_url; recorded: none is due; suppressed: auto reply is stopped or paused.',
        },
      },
      'auto_dialog: accepted; the reply goes to send_url (see the callback).',
    ),
    StopData: closed([...STOP_ANSWER_FIELDS.required], {
      conversation_id: conversationId,
      command: { const: COMMANDS[0] },
      auto_reply: { const: 'stopped' },
      cancelled: { type: 'integer', minimum: 0, description: 'Messages whose pending reply was cancelled.' },
    } satisfies PropertiesOf<StopAnswerData>),
    ResumeData: closed([...RESUME_ANSWER_FIELDS.required], {
      conversation_id: conversationId,
      command: { const: COMMANDS[1] },
      auto_reply: { const: 'active' },
    } satisfies PropertiesOf<ResumeAnswerData>),
    DeliveryAttempt: closed([...DELIVERY_ATTEMPT_FIELDS.required], {
      attempt: { type: 'integer', minimum: 1 },
      at: { type: 'string', format: 'date-time' },
      status: { type: ['integer', 'null'], description: "Your server's HTTP status, or null (network error, time-out, cancelled)." },
      latency_ms: { type: 'integer', minimum: 0 },
      error: { type: ['string', 'null'] },
    } satisfies PropertiesOf<DeliveryAttemptView>),
    DeliveryView: closed([...DELIVERY_VIEW_FIELDS.required], {
      delivery_id: { type: 'string' },
      state: { type: 'string', enum: [...DELIVERY_STATES] },
      in_reply_to: stringList,
      dead_reason: { type: 'string', enum: [...DEAD_LETTER_REASONS] },
      attempts: { type: 'array', items: ref('DeliveryAttempt') },
    } satisfies PropertiesOf<DeliveryView>),
    StatusData: closed(['conversation_id', 'command', ...AUTO_REPLY_STATUS_FIELDS.required], {
      conversation_id: conversationId,
      command: { const: COMMANDS[2] },
      ...({
        auto_reply: { type: 'string', enum: [...AUTO_REPLY_STATES] },
        paused_until: {
          type: ['string', 'null'],
          description:
            "ISO time until which a human's message (HUMAN_PAUSE_S) or a handoff (HANDOFF_PAUSE_S) pauses auto replies; resume_auto_reply ends it.",
        },
        pending: {
          type: 'array',
          items: closed([...PENDING_REPLIES_FIELDS.required], {
            msg_ids: stringList,
            state: { type: 'string', enum: [...PENDING_REPLY_STATES] },
          } satisfies PropertiesOf<PendingReplies>),
        },
        deliveries: { type: 'array', items: ref('DeliveryView'), description: 'The latest deliveries with their attempts.' },
      } satisfies PropertiesOf<AutoReplyStatusView>),
    } satisfies PropertiesOf<StatusAnswerData>),
    DeliveryPayload: closed(
      [...DELIVERY_PAYLOAD_FIELDS.required],
      {
        type: { const: DELIVERY_PAYLOAD_TYPE },
        delivery_id: { type: 'string', description: '= webhook-id: the same on every retry; deduplicate on it.' },
        client: { type: 'string' },
        conversation_id: conversationId,
        in_reply_to: { ...stringList, description: 'The customer messages this reply answers (several when debounced).' },
        handoff: { ...handoff, description: `${handoff.description} The conversation's auto replies then pause for HANDOFF_PAUSE_S.` },
        sources,
        message_info: closed([...DELIVERY_MESSAGE_INFO_FIELDS.required], {
          msg_id: { type: 'string', description: "The reply's id (= delivery_id)." },
          group_id: { type: 'string' },
          group_name: { type: 'string' },
          from_user_id: { type: 'string', description: 'The bound account (the sender of the reply).' },
          to_user_id: { type: 'string', description: 'The customer.' },
          at_list: stringList,
          content: { type: 'string' },
          files_info: {
            type: 'array',
            items: closed(['content', 'file_type'], { content: { type: 'string' }, file_type: { type: 'string', enum: [...FILE_TYPES] } }),
          },
          message_type: { const: 1 },
          event_type: { const: 'auto_dialog' },
          from_user_type: { const: 4 },
          create_timestamp: { type: 'integer' },
        } satisfies PropertiesOf<DeliveryMessageInfo>),
      } satisfies PropertiesOf<DeliveryPayload>,
      'The reply POSTed to send_url; message_info mirrors the request format.',
    ),
  };
}

/** A success envelope whose data is one of the named schemas. */
export function successEnvelope(status: number, data: Schema): Schema {
  return closed(['code', 'message', 'request_id', 'data'], {
    code: { const: status },
    message: { const: 'ok' },
    request_id: { type: 'string' },
    data,
  });
}

export { ref };
