import type { AssistReplyData } from '@dialog-relay/contracts';
import { conversationIdOf } from '@dialog-relay/conversations';
import { engineRequestOf, settled, type Scenario } from './scenario.js';

/**
 * docs/service-rules.md §5 assist_dialog: reuse the conversation of an earlier auto_dialog message with the same
 * msg_id, else the participants' conversation; suggest a reply (with its handoff and sources, §17); record
 * the message, not the suggestion.
 * The index lookup and the likely context read are parts of the request's first script; the context
 * of an indexed conversation that is not the participants' is read after (one more command).
 */
export const assistDialog: Scenario = (deps, input) => {
  const { request, client, msgId } = input;
  const info = request.message_info;
  const participants = conversationIdOf(client.id, info);
  const { contextWindow: window, contextCustomerTexts: customerTexts } = deps.engine;
  const reads = [
    deps.messageIndex.lookupStep(client.id, msgId),
    ...(window > 0 ? [deps.contexts.readStep(participants, window, customerTexts)] : []),
  ];
  return {
    reads,
    finish: async (replies) => {
      const indexed = typeof replies[0] === 'string' ? replies[0] : null;
      const conversationId = indexed ?? participants;
      const context =
        window === 0
          ? []
          : conversationId === participants
            ? deps.contexts.readReply(replies[1])
            : await deps.contexts.read(conversationId, window, customerTexts);
      const asked = engineRequestOf(input, conversationId, context);
      const { content, handoff, sources } = await deps.engine.reply(asked);
      const data = {
        conversation_id: conversationId,
        msg_id: deps.newId(),
        in_reply_to: [msgId],
        content,
        handoff,
        sources,
        context_reused: indexed !== null,
      } satisfies AssistReplyData;
      return {
        status: 200,
        conversationId,
        data,
        writes: [deps.contexts.recordStep(conversationId, [asked.message])],
        settle: settled(data),
      };
    },
  };
};
