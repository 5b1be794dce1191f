import { contextMessageFrom, conversationIdOf } from '@dialog-relay/conversations';
import type { Scenario } from './scenario.js';

/**
 * docs/service-rules.md §5 assist_dialog: reuse the conversation of an earlier auto_dialog message with the same
 * msg_id, else the participants' conversation; suggest a reply (with its handoff and sources, §17); record
 * the message, not the suggestion.
 * The index lookup and the likely context read go out in one round trip.
 */
export const assistDialog: Scenario = (deps, input) => {
  const { request, client, msgId } = input;
  const info = request.message_info;
  const participants = conversationIdOf(client.id, info);
  const reads = Promise.all([deps.messageIndex.lookup(client.id, msgId), deps.contexts.read(participants, deps.engine.contextWindow)]);
  return { reads, finish: async () => {
    const [indexed, participantContext] = await reads;
    const conversationId = indexed ?? participants;
    const context = conversationId === participants ? participantContext : await deps.contexts.read(conversationId, deps.engine.contextWindow);
    const message = contextMessageFrom(info, msgId);
    const { content, handoff, sources } = await deps.engine.reply({ conversationId, client: client.id, message, context: context.filter((m) => m.msg_id !== msgId) });
    return {
      status: 200,
      conversationId,
      data: { conversation_id: conversationId, msg_id: deps.newId(), in_reply_to: [msgId], content, handoff, sources, context_reused: indexed !== null },
      commit: () => deps.contexts.record(conversationId, [message]),
    };
  } };
};
