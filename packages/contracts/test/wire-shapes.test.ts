import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  AUTO_REPLY_STATUS_FIELDS,
  DEAD_LETTER_REASONS,
  DELIVERY_PAYLOAD_FIELDS,
  DELIVERY_STATES,
  DELIVERY_VIEW_FIELDS,
} from '../src/index.js';

const doc = (path: string): string => readFileSync(new URL(`../../../../docs/${path}`, import.meta.url), 'utf8');

describe('wire shapes defined once (packages/contracts)', () => {
  it('lists which fields every answer carries, from the types (a delivery may lack dead_reason)', () => {
    expect(DELIVERY_VIEW_FIELDS.all).to.deep.equal(['delivery_id', 'state', 'in_reply_to', 'dead_reason', 'attempts']);
    expect(DELIVERY_VIEW_FIELDS.required).to.deep.equal(['delivery_id', 'state', 'in_reply_to', 'attempts']);
    expect(AUTO_REPLY_STATUS_FIELDS.required).to.deep.equal(AUTO_REPLY_STATUS_FIELDS.all);
    expect(Object.isFrozen(DELIVERY_PAYLOAD_FIELDS.all)).to.equal(true);
  });

  it('the dead-letter reasons of docs/design/reply-protocol.md and docs/integrating.md are DEAD_LETTER_REASONS', () => {
    const protocol = doc('design/reply-protocol.md');
    const table = protocol.slice(protocol.indexOf('| reason | when |'), protocol.indexOf('\n\n', protocol.indexOf('| reason | when |')));
    expect([...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((row) => row[1])).to.deep.equal([...DEAD_LETTER_REASONS]);
    const guide = doc('integrating.md').replace(/\s+/g, ' ');
    const sentence = /Dead-letter reasons: ([^.]+)\./.exec(guide)?.[1] ?? '';
    expect([...sentence.matchAll(/`([a-z_]+)`/g)].map((m) => m[1])).to.deep.equal([...DEAD_LETTER_REASONS]);
  });

  it('docs/openapi.json describes the auto_reply_status view, the delivery and the delivery payload field for field', () => {
    type Described = { required: string[]; properties: Record<string, { enum?: string[] }> };
    const schemas = (JSON.parse(doc('openapi.json')) as { components: { schemas: Record<string, Described> } }).components.schemas;
    expect(Object.keys(schemas['StatusData']!.properties)).to.deep.equal(['conversation_id', 'command', ...AUTO_REPLY_STATUS_FIELDS.all]);
    expect(Object.keys(schemas['DeliveryView']!.properties)).to.deep.equal([...DELIVERY_VIEW_FIELDS.all]);
    expect(schemas['DeliveryView']!.required).to.deep.equal([...DELIVERY_VIEW_FIELDS.required]);
    expect(Object.keys(schemas['DeliveryPayload']!.properties)).to.deep.equal([...DELIVERY_PAYLOAD_FIELDS.all]);
    expect(schemas['DeliveryView']!.properties['state']!.enum).to.deep.equal([...DELIVERY_STATES]);
    expect(schemas['DeliveryView']!.properties['dead_reason']!.enum).to.deep.equal([...DEAD_LETTER_REASONS]);
  });
});
