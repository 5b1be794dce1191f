import type { ClientSettings } from '@dialog-relay/config';
import type { MessageInfo } from '@dialog-relay/contracts';

/**
 * docs/service-rules.md §6: only customers (from_user_type 2) get a reply; bound accounts, staff and the bot's
 * own messages are recorded only, so the bot never answers itself. In a group a customer gets a
 * reply only when at_list names the bound account (to_user_id), unless the client's policy is "always".
 */
export function isReplyDue(info: MessageInfo, client: Pick<ClientSettings, 'groupPolicy'>): boolean {
  if (info.from_user_type !== 2) return false;
  const inGroup = (info.group_id ?? '') !== '';
  if (!inGroup || client.groupPolicy === 'always') return true;
  const bound = info.to_user_id ?? '';
  return bound !== '' && (info.at_list ?? []).includes(bound);
}

/**
 * docs/service-rules.md §14: a person writing to the customer — on the bound account (from_user_type 1) or as
 * staff (3) — has answered, so the bot's reply not sent yet is cancelled.
 */
export function isHumanReply(info: MessageInfo): boolean {
  return info.from_user_type === 1 || info.from_user_type === 3;
}
