import { fieldList } from './field-list.js';
import type { FileInfo } from './message.types.js';

/** The `type` of every reply POSTed to send_url. */
export const DELIVERY_PAYLOAD_TYPE = 'auto_dialog.reply';

/** The reply's message as the payload carries it: the request format, sent by the bound account to the customer. */
export interface DeliveryMessageInfo {
  /** The reply's id (= delivery_id). */
  msg_id: string;
  /** group_id, group_name and at_list appear in groups only. */
  group_id?: string;
  group_name?: string;
  /** The bound account (the sender of the reply). */
  from_user_id: string;
  /** The customer. */
  to_user_id: string;
  at_list?: string[];
  /** content and files_info appear only when the reply has such parts. */
  content?: string;
  files_info?: FileInfo[];
  message_type: 1;
  event_type: 'auto_dialog';
  from_user_type: 4;
  create_timestamp: number;
}

export const DELIVERY_MESSAGE_INFO_FIELDS = fieldList<DeliveryMessageInfo>({
  msg_id: true,
  group_id: false,
  group_name: false,
  from_user_id: true,
  to_user_id: true,
  at_list: false,
  content: false,
  files_info: false,
  message_type: true,
  event_type: true,
  from_user_type: true,
  create_timestamp: true,
});

/** The JSON body POSTed to send_url (docs/service-rules.md §7, §17): handoff and sources beside in_reply_to. */
export interface DeliveryPayload {
  type: typeof DELIVERY_PAYLOAD_TYPE;
  /** = webhook-id: the same on every retry. */
  delivery_id: string;
  client: string;
  conversation_id: string;
  /** The customer messages this reply answers (several when debounced). */
  in_reply_to: string[];
  /** True when the reply hands the conversation to a person; its auto replies then pause for HANDOFF_PAUSE_S. */
  handoff: boolean;
  /** Ids of the knowledge entries the reply rests on (possibly none). */
  sources: string[];
  message_info: DeliveryMessageInfo;
}

export const DELIVERY_PAYLOAD_FIELDS = fieldList<DeliveryPayload>({
  type: true,
  delivery_id: true,
  client: true,
  conversation_id: true,
  in_reply_to: true,
  handoff: true,
  sources: true,
  message_info: true,
});
