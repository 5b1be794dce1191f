import { expect } from 'chai';
import { startTestApi, type TestApi } from './support/test-api.js';

type Json = Record<string, unknown>;

/** The demo client as `npm start` configures it when CLIENTS is not set (scripts/start.mjs). */
const DEMO_CLIENTS = {
  demo: { secret: 'demo-secret-not-for-production', webhook_secret: 'whsec_ZGVtby13ZWJob29rLXNlY3JldA==', allow_private_send_urls: true },
};

async function servedExamples(t: TestApi): Promise<{ description: string; examples: Record<string, { summary: string; value: Json }> }> {
  const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as Json;
  const info = document['info'] as { description: string };
  const post = (document['paths'] as Record<string, Record<string, Json>>)['/custom-im/chat-messages']!['post']!;
  const content = (post['requestBody'] as { content: Record<string, { examples: Record<string, { summary: string; value: Json }> }> })
    .content;
  return { description: info.description, examples: content['application/json']!.examples };
}

/** issue 20: /docs examples were signed with `demo-secret`, a secret the running demo client does not have. */
describe('request examples of the served /openapi.json (/docs)', function () {
  this.timeout(60_000);

  it('are accepted as they stand by an API running the demo client, and say which secret signed them', async () => {
    const t = await startTestApi({ CLIENTS: JSON.stringify(DEMO_CLIENTS) });
    try {
      const { description, examples } = await servedExamples(t);
      // The synchronous scenarios and a command: the auto_dialog examples name a send_url off this machine.
      for (const name of ['assist_dialog', 'website_dialog', 'auto_reply_status']) {
        const example = examples[name]!;
        const answer = await fetch(`${t.url}/custom-im/chat-messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(example.value),
        });
        const body = (await answer.json()) as { code: number; message: string };
        expect(answer.status, `${name}: ${JSON.stringify(body)}`).to.equal(200);
      }
      expect(description).to.include('signed with the secret of the demo client this service runs with');
      for (const example of Object.values(examples)) expect(example.summary).to.include('(signed for the demo client');
    } finally {
      await t.close();
    }
  });

  it('are signed afresh: an example taken from /docs after TIMESTAMP_TOLERANCE_S has passed since start-up is still accepted', async () => {
    const t = await startTestApi({ CLIENTS: JSON.stringify(DEMO_CLIENTS), TIMESTAMP_TOLERANCE_S: '2' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 3500));
      const { examples } = await servedExamples(t);
      const answer = await fetch(`${t.url}/custom-im/chat-messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(examples['assist_dialog']!.value),
      });
      expect(answer.status, JSON.stringify(await answer.json())).to.equal(200);
    } finally {
      await t.close();
    }
  });

  it('name the test-vector secret `demo-secret` when no demo client runs', async () => {
    const t = await startTestApi();
    try {
      const { description, examples } = await servedExamples(t);
      expect(description).to.include('The request examples are signed with the secret `demo-secret`');
      expect(examples['assist_dialog']!.value['timestamp']).to.equal(1_700_000_000);
    } finally {
      await t.close();
    }
  });
});
