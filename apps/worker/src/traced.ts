import type { Deliverer } from '@dialog-relay/delivery';
import type { ReplyEngine } from '@dialog-relay/reply-engine';
import type { Tracing } from '@dialog-relay/tracing';

/** The deliverer, each POST to a send_url in a client span (the trace's last hop); unchanged without tracing. */
export function tracedDeliverer(inner: Deliverer, tracing: Tracing | undefined): Deliverer {
  if (tracing === undefined) return inner;
  return {
    deliver: (request) => {
      let host = '';
      try {
        host = new URL(request.url).host;
      } catch {
        host = '';
      }
      return tracing.inSpan(
        'POST send_url',
        'client',
        { 'http.request.method': 'POST', 'server.address': host, 'dialog_relay.delivery_id': request.deliveryId },
        async (span) => {
          const outcome = await inner.deliver(request);
          span.setAttributes({ 'http.response.status_code': outcome.status ?? 0, 'dialog_relay.outcome': outcome.kind });
          return outcome;
        },
      );
    },
    close: () => inner.close(),
  };
}

/** The reply engine, each call in a span; unchanged without tracing. */
export function tracedEngine(inner: ReplyEngine, tracing: Tracing | undefined): ReplyEngine {
  if (tracing === undefined) return inner;
  return {
    name: inner.name,
    contextWindow: inner.contextWindow,
    contextCustomerTexts: inner.contextCustomerTexts,
    reply: (request, signal) =>
      tracing.inSpan(
        'reply engine',
        'internal',
        { 'dialog_relay.engine': inner.name, 'dialog_relay.conversation_id': request.conversationId },
        () => inner.reply(request, signal),
      ),
  };
}
