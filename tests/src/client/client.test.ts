import t from 'tap';
import { readFileSync } from 'node:fs';
import { type Schemas, supportClient } from '@support/client';
import { serviceFixture } from '../support/fixture';
import { CLIENT_SCHEMA, generatedSchema } from './generate';

// The generated client (packages/client), used the usual way: `if (error) throw`, then the data
// is typed, with no cast. mistakes.ts holds what must not compile (its @ts-expect-error lines
// fail the build when a mistake compiles).

const e2e = serviceFixture({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });

t.test('the committed client is generated from the document as served (npm run client:generate)', async (t) => {
  t.ok(readFileSync(CLIENT_SCHEMA, 'utf8') === generatedSchema(), 'packages/client/src/schema.ts is current');
});

t.test('create a customer, a conversation and a message, page through customers, register a webhook', async (t) => {
  const api = supportClient(e2e.svc.baseUrl, e2e.ws.key);
  const created: Schemas['Customer'][] = [];
  for (const email of ['c1@example.org', 'c2@example.org', 'c3@example.org']) {
    const { data, error } = await api.POST('/customers', { body: { email, name: 'Client Test' } });
    if (error) throw new Error(error.error.message);
    created.push(data);
  }
  const conversation = await api.POST('/conversations', { body: { channel: 'api', customer: { email: 'c1@example.org' } } });
  if (conversation.error) throw new Error(conversation.error.error.message);
  const message = await api.POST('/conversations/{id}/messages', {
    params: { path: { id: conversation.data.id } },
    body: { content: 'Hello from the client' },
  });
  if (message.error) throw new Error(message.error.error.message);
  t.strictSame([conversation.data.customer_id, message.data.content], [created[0].id, 'Hello from the client']);

  const seen: string[] = [];
  let after: string | undefined;
  for (;;) {
    const { data, error } = await api.GET('/customers', { params: { query: { limit: 2, starting_after: after } } });
    if (error) throw new Error(error.error.message);
    seen.push(...data.data.map((c) => c.email ?? ''));
    if (!data.has_more || data.next_cursor === null) break;
    after = data.next_cursor;
  }
  t.strictSame(seen.sort(), ['c1@example.org', 'c2@example.org', 'c3@example.org']);

  const hook = await api.POST('/webhook_endpoints', { body: { url: 'https://127.0.0.1:9/hooks', enabled_events: ['customer.created'] } });
  if (hook.error) throw new Error(hook.error.error.message);
  t.match(hook.data.secret, /^whsec_/);

  // An error is typed too: the envelope, with its status and code.
  const missing = await api.GET('/customers/{id}', { params: { path: { id: 'cus_00000000000000000000000000' } } });
  t.strictSame([missing.response.status, missing.error?.error.code], [404, 'not_found']);
});
