import {
  DELIVERY_PAYLOAD_TYPE,
  type DeliveryMessageInfo,
  type DeliveryPayload,
  type FileInfo,
  type FileType,
  type ReplyPart,
} from '@dialog-relay/contracts';

export interface ReplyPayloadInput {
  deliveryId: string;
  client: string;
  conversationId: string;
  /** msg_ids of the customer messages this reply answers. */
  inReplyTo: string[];
  replyMsgId: string;
  /** Set for group conversations only. */
  groupId: string | undefined;
  groupName: string | undefined;
  /** The account bound to the bot: the reply's sender. */
  boundAccountId: string;
  /** The customer: the reply's addressee. */
  customerId: string;
  content: ReplyPart[];
  /** The reply hands the conversation to a person (docs/service-rules.md §17). */
  handoff: boolean;
  /** The ids of the knowledge entries the reply rests on (possibly none). */
  sources: string[];
  /** Unix seconds. */
  createTimestamp: number;
}

/**
 * The JSON body POSTed to send_url (docs/service-rules.md §7, §17): handoff and sources beside in_reply_to. message_info mirrors the request format:
 * group_id, group_name and at_list appear in groups only, content and files_info only when
 * the reply has such parts.
 */
export function buildReplyPayload(input: ReplyPayloadInput): string {
  const inGroup = input.groupId !== undefined && input.groupId !== '';
  const texts = input.content.filter((part) => part.type === 'text').map((part) => part.content);
  const files = input.content.flatMap((part): FileInfo[] =>
    part.type === 'text' ? [] : [{ content: part.content, file_type: part.type satisfies FileType }],
  );
  const messageInfo: DeliveryMessageInfo = {
    msg_id: input.replyMsgId,
    ...(inGroup ? { group_id: input.groupId } : {}),
    ...(inGroup && input.groupName !== undefined ? { group_name: input.groupName } : {}),
    from_user_id: input.boundAccountId,
    to_user_id: input.customerId,
    ...(inGroup ? { at_list: [input.customerId] } : {}),
    ...(texts.length > 0 ? { content: texts.join('\n') } : {}),
    ...(files.length > 0 ? { files_info: files } : {}),
    message_type: 1,
    event_type: 'auto_dialog',
    from_user_type: 4,
    create_timestamp: input.createTimestamp,
  };
  return JSON.stringify({
    type: DELIVERY_PAYLOAD_TYPE,
    delivery_id: input.deliveryId,
    client: input.client,
    conversation_id: input.conversationId,
    in_reply_to: [...input.inReplyTo],
    handoff: input.handoff,
    sources: [...input.sources],
    message_info: messageInfo,
  } satisfies DeliveryPayload);
}
