import type { ContextMessage, SyncReplyData } from '@dialog-relay/contracts';
import { conversationIdOf } from '@dialog-relay/conversations';
import type { EngineReply } from '@dialog-relay/reply-engine';
import { engineRequestOf, type Scenario, type ScenarioResult } from './scenario.js';

/**
 * Resolves in the event loop's check phase, after this turn's I/O callbacks: the engine then runs for
 * the requests that came in together one after another, its index warm in the CPU's caches, as it
 * did on the batch of Redis replies that ended their first scripts. Run at once, in each request's
 * own callback between the HTTP parsing of the others, the early reply cost the API more CPU than
 * the round trip it saves (docs/design/performance-log.md, twenty-fourth session).
 */
const afterThisTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * docs/service-rules.md §5, §17 website_dialog: answer at once (with its handoff and sources); record both the message and the reply.
 * A reply no earlier message could change (the engine's replyAlone: a confident answer) is made before
 * the request is admitted, and its writes run in admission's script: the context is not read, one
 * round trip in all (docs/design/performance.md "A reply from the message alone"). Otherwise the
 * context is read with admission, and the engine answers with it.
 */
export const websiteDialog: Scenario = (deps, input) => {
  const { request, client, msgId } = input;
  const info = request.message_info;
  const conversationId = conversationIdOf(client.id, info);
  const { engine } = deps;
  const { contextWindow: window, contextCustomerTexts: customerTexts } = engine;
  const alone = engineRequestOf(input, conversationId, []);
  /** `used`: an early reply's, called once the request is answered with it (admitted, its writes run). */
  const resultOf = ({ content, handoff, sources }: EngineReply, used?: () => void): ScenarioResult => {
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
      writes: [deps.contexts.recordStep(conversationId, content.length > 0 ? [alone.message, reply] : [alone.message])],
      settle: () => {
        used?.();
        return Promise.resolve(data);
      },
    };
  };
  return {
    reads: window > 0 ? [deps.contexts.readStep(conversationId, window, customerTexts)] : [],
    ...(engine.replyAlone === undefined
      ? {}
      : {
          finishEarly: async () => {
            await afterThisTurn();
            const early = await engine.replyAlone?.(alone);
            return early && resultOf(early.reply, early.used);
          },
        }),
    finish: async (replies) => {
      const context = window > 0 ? deps.contexts.readReply(replies[0]) : [];
      return resultOf(await engine.reply(engineRequestOf(input, conversationId, context, alone.message)));
    },
  };
};
