import * as contracts from '@dialog-relay/contracts';
import { expect } from 'chai';
import * as sdk from '../src/index.js';

/**
 * The SDK is published on its own and imports nothing of the service, so it keeps copies of the wire
 * shapes the service defines once in packages/contracts. These tests fail when a copy differs: the
 * value lists at run time, the answer types at compile time (a mismatch fails the build of this file).
 */

/** true when A and B are the same type (each field, optionality and type alike). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type StatusView = Omit<sdk.CommandAnswers['auto_reply_status'], 'conversation_id' | 'command'>;

const sameTypes: {
  deliveryAttempt: Same<sdk.DeliveryAttemptView, contracts.DeliveryAttemptView>;
  deliveryView: Same<sdk.DeliveryView, contracts.DeliveryView>;
  pendingReplies: Same<StatusView['pending'][number], contracts.PendingReplies>;
  statusView: Same<StatusView, contracts.AutoReplyStatusView>;
  autoAccepted: Same<sdk.AutoAccepted['status'], contracts.AutoDialogStatus>;
  signatureScheme: Same<sdk.SignatureScheme, contracts.SignatureScheme>;
  eventType: Same<sdk.EventType, contracts.EventType>;
  command: Same<sdk.Command, contracts.Command>;
  replyPart: Same<sdk.ReplyPart, contracts.ReplyPart>;
  fileInfo: Same<sdk.FileInfo, contracts.FileInfo>;
  syncReply: Same<sdk.SyncReply, contracts.SyncReplyData>;
  assistReply: Same<sdk.AssistReply, contracts.AssistReplyData>;
  deliveryPayload: Same<sdk.DeliveryPayload, contracts.DeliveryPayload>;
  stopAnswer: Same<sdk.CommandAnswers['stop_auto_reply'], contracts.CommandAnswers['stop_auto_reply']>;
  resumeAnswer: Same<sdk.CommandAnswers['resume_auto_reply'], contracts.CommandAnswers['resume_auto_reply']>;
  statusAnswer: Same<sdk.CommandAnswers['auto_reply_status'], contracts.CommandAnswers['auto_reply_status']>;
} = {
  deliveryAttempt: true,
  deliveryView: true,
  pendingReplies: true,
  statusView: true,
  autoAccepted: true,
  signatureScheme: true,
  eventType: true,
  command: true,
  replyPart: true,
  fileInfo: true,
  syncReply: true,
  assistReply: true,
  deliveryPayload: true,
  stopAnswer: true,
  resumeAnswer: true,
  statusAnswer: true,
};

/** The SDK's fields of each view, held to its types by the compiler (none missing, none extra). */
const sdkFields = {
  deliveryAttempt: { attempt: true, at: true, status: true, latency_ms: true, error: true } satisfies Record<
    keyof sdk.DeliveryAttemptView,
    true
  >,
  deliveryView: { delivery_id: true, state: true, in_reply_to: true, dead_reason: true, attempts: true } satisfies Record<
    keyof sdk.DeliveryView,
    true
  >,
  statusView: { auto_reply: true, paused_until: true, pending: true, deliveries: true } satisfies Record<keyof StatusView, true>,
};

describe('sdk: its copies of the wire shapes match packages/contracts', () => {
  it('lists the same values: auto_dialog statuses, delivery states, dead-letter reasons, auto reply and pending states, signature schemes', () => {
    expect(sdk.AUTO_DIALOG_STATUSES, 'AUTO_DIALOG_STATUSES').to.deep.equal(contracts.AUTO_DIALOG_STATUSES);
    expect(sdk.DELIVERY_STATES, 'DELIVERY_STATES').to.deep.equal(contracts.DELIVERY_STATES);
    expect(sdk.DEAD_LETTER_REASONS, 'DEAD_LETTER_REASONS').to.deep.equal(contracts.DEAD_LETTER_REASONS);
    expect(sdk.AUTO_REPLY_STATES, 'AUTO_REPLY_STATES').to.deep.equal(contracts.AUTO_REPLY_STATES);
    expect(sdk.PENDING_REPLY_STATES, 'PENDING_REPLY_STATES').to.deep.equal(contracts.PENDING_REPLY_STATES);
    expect(sdk.SIGNATURE_SCHEMES, 'SIGNATURE_SCHEMES').to.deep.equal(contracts.SIGNATURE_SCHEMES);
  });

  it('names the same fields of the delivery attempt, the delivery and the auto_reply_status view', () => {
    expect(Object.keys(sdkFields.deliveryAttempt), 'delivery attempt').to.have.members([...contracts.DELIVERY_ATTEMPT_FIELDS.all]);
    expect(Object.keys(sdkFields.deliveryView), 'delivery view').to.have.members([...contracts.DELIVERY_VIEW_FIELDS.all]);
    expect(Object.keys(sdkFields.statusView), 'status view').to.have.members([...contracts.AUTO_REPLY_STATUS_FIELDS.all]);
  });

  it('types the answers alike (checked by the compiler)', () => {
    expect(Object.values(sameTypes).every((same) => same)).to.equal(true);
  });
});
