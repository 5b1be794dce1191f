import type { ContextMessage, SyncReplyData } from '@dialog-relay/contracts';
import { conversationIdOf } from '@dialog-relay/conversations';
import { engineRequestOf, settled, type Scenario } from './scenario.js';

/** docs/service-rules.md §5, §17 website_dialog: answer at once (with its handoff and sources); record both the message and the reply. */
export const websiteDialog: Scenario = (deps, input) => {
  const { request, client, msgId } = input;
  const info = request.message_info;
  const conversationId = conversationIdOf(client.id, info);
  const { contextWindow: window, contextCustomerTexts: customerTexts } = deps.engine;
  return {
    reads: window > 0 ? [deps.contexts.readStep(conversationId, window, customerTexts)] : [],
    finish: async (replies) => {
      const context = window > 0 ? deps.contexts.readReply(replies[0]) : [];
      const asked = engineRequestOf(input, conversationId, context);
      const { content, handoff, sources } = await deps.engine.reply(asked);
      const replyId = deps.newId();
      const reply: ContextMessage = {
        msg_id: replyId,
        role: 'bot',
        from_user_id: info.to_user_id ?? '',
        content,
        event_type: 'website_dialog',
        create_timestamp: Math.floor(deps.nowMs() / 1000),
      };
      const data = {
        conversation_id: conversationId,
        msg_id: replyId,
        in_reply_to: [msgId],
        content,
        handoff,
        sources,
      } satisfies SyncReplyData;
      return {
        status: 200,
        conversationId,
        data,
        writes: [deps.contexts.recordStep(conversationId, content.length > 0 ? [asked.message, reply] : [asked.message])],
        settle: settled(data),
      };
    },
  };
};
