import type { EarlyReply, ReplyEngine, ReplyOutcome } from './reply-engine.js';

/** Counts one reply of an engine by its outcome (a metrics port: the apps record it with Prometheus). */
export type CountReply = (engine: string, outcome: ReplyOutcome) => void;

/**
 * The engine, each reply counted by outcome (answered, handoff, error; docs/service-rules.md §17). A
 * call that throws counts as an error, unless its signal aborted it (a draining worker hands it back).
 */
export function countedEngine(inner: ReplyEngine, count: CountReply): ReplyEngine {
  return {
    name: inner.name,
    contextWindow: inner.contextWindow,
    contextCustomerTexts: inner.contextCustomerTexts,
    async reply(request, signal) {
      try {
        const reply = await inner.reply(request, signal);
        count(inner.name, reply.outcome);
        return reply;
      } catch (error) {
        if (!signal?.aborted) count(inner.name, 'error');
        throw error;
      }
    },
    // only where the engine has it: an engine without it is never asked before a request is admitted
    ...(inner.replyAlone === undefined ? {} : { replyAlone: countedAlone(inner.name, inner.replyAlone.bind(inner), count) }),
  };
}

/**
 * replyAlone, a reply it gives counted when it is used (a refused or repeated request's is not: §9);
 * one it does not give is counted by the `reply` that follows. A failure counts at once.
 */
function countedAlone(
  name: string,
  replyAlone: NonNullable<ReplyEngine['replyAlone']>,
  count: CountReply,
): NonNullable<ReplyEngine['replyAlone']> {
  return async (request): Promise<EarlyReply | undefined> => {
    try {
      const early = await replyAlone(request);
      if (early === undefined) return undefined;
      return {
        reply: early.reply,
        used: () => {
          early.used();
          count(name, early.reply.outcome);
        },
      };
    } catch (error) {
      count(name, 'error');
      throw error;
    }
  };
}
