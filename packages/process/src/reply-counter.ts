import { Counter, type Registry } from 'prom-client';
import { boundChildren } from './bound-children.js';

/**
 * `dialog_relay_replies_total`, the replies of an engine by outcome (answered, handoff, error), which
 * the API (assist_dialog, website_dialog) and the worker (auto_dialog) both count; `here` names what
 * this process counts. Registered on `registry`; the returned function is the reply engine's
 * CountReply, its label children bound once per engine and outcome.
 */
export function createReplyCounter(registry: Registry, here: string): (engine: string, outcome: string) => void {
  const replies = new Counter({
    name: 'dialog_relay_replies_total',
    help: `Replies by engine and outcome (answered, handoff, error): here, ${here}`,
    labelNames: ['engine', 'outcome'],
    registers: [registry],
  });
  const repliesOf = boundChildren((key) => {
    const [engine, outcome] = key.split('\n');
    return replies.labels({ engine: engine ?? '', outcome: outcome ?? '' });
  });
  return (engine, outcome) => repliesOf(`${engine}\n${outcome}`).inc();
}
