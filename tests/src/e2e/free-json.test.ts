import fc from 'fast-check';
import t from 'tap';
import { freeJsonProblem } from '@support/domain';
import { enableAgent } from '../support/agent';
import type { Reply } from '../support/client';
import { expectError } from '../support/expect';
import { atLimits, beyondLimits, goodObject, withOneViolation } from '../support/free-json-arb';
import { checkProperty, expectSame, propertySeed } from '../support/property';
import { Tenant, tenant } from '../support/workspace';
import { serviceFixture } from '../support/fixture';

/**
 * No request can stop the platform: free-form JSON beyond the limits every read store holds
 * is refused with a 400 naming its path, and whatever is accepted is stored and read back as
 * given, on every write route that takes free-form JSON (the mongo/ twin runs this on FerretDB).
 */
const seed = propertySeed();
t.comment(`fast-check seed ${seed} (FC_SEED=${seed} replays it)`);

let other: Tenant;
let conversationId: string;
const e2e = serviceFixture();
t.before(async () => {
  other = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Other' });
  await enableAgent(e2e.ws);
  conversationId = (await e2e.ws.api.post('/conversations', {})).body.id;
});

let n = 0;
/** Each write route with free-form JSON: sends `value` in its free-form field(s), returns the answer and what a read gives back. */
const ROUTES: { name: string; field: string; write(value: unknown): Promise<Reply & { stored?: () => Promise<unknown> }> }[] = [
  {
    name: 'POST /customers metadata',
    field: 'metadata',
    write: async (metadata) => {
      const r = await e2e.ws.api.post('/customers', { external_id: `fj-${++n}`, metadata });
      return { ...r, stored: async () => (await e2e.ws.api.get(`/customers/${r.body.id}`)).body.metadata };
    },
  },
  {
    name: 'POST /conversations metadata',
    field: 'metadata',
    write: async (metadata) => {
      const r = await e2e.ws.api.post('/conversations', { metadata, customer: { external_id: `fjc-${++n}` } });
      return { ...r, stored: async () => (await e2e.ws.api.get(`/conversations/${r.body.id}`)).body.metadata };
    },
  },
  {
    name: 'POST /conversations/{id}/messages channel_metadata',
    field: 'channel_metadata',
    write: async (channel_metadata) => {
      const r = await e2e.ws.api.post(`/conversations/${conversationId}/messages`, { content: 'hi', channel_metadata });
      // The message resource does not show channel_metadata: the message read back is the proof its event was applied.
      return { ...r, stored: async () => ((await messageOf(conversationId, r.body.id))?.id === r.body.id ? channel_metadata : 'not in the read model') };
    },
  },
  {
    name: 'POST /conversations/{id}/messages attachments',
    field: 'attachments.0',
    write: async (value) => {
      const r = await e2e.ws.api.post(`/conversations/${conversationId}/messages`, { content: 'file', attachments: [value] });
      return { ...r, stored: async () => (await messageOf(conversationId, r.body.id))?.attachments[0] };
    },
  },
  {
    name: 'POST /agent/messages attachments',
    field: 'attachments.0',
    write: async (value) => {
      const r = await e2e.ws.api.post('/agent/messages', { message: 'Hello there', attachments: [value] });
      return {
        ...r,
        stored: async () => {
          const page = await e2e.ws.api.get(`/conversations/${r.body.conversation_id}/messages?limit=100`);
          return page.body.data.find((m: any) => m.sender_type === 'customer')?.attachments[0];
        },
      };
    },
  },
];

const messageOf = async (conversation: string, id: string) =>
  (await e2e.ws.api.get(`/conversations/${conversation}/messages?limit=100`)).body.data.find((m: any) => m.id === id);

const succeeded = (status: number) => status === 200 || status === 201;

t.test('the reproduction: metadata nested 999 levels is a 400, and every workspace keeps writing', async (t) => {
  let deep: unknown = 1;
  for (let i = 0; i < 999; i++) deep = [deep];
  const r = await e2e.ws.api.post('/customers', { email: 'x@e.com', metadata: { a: deep } });
  expectError(t, r, 400);
  t.match(r.body.error.message, /^Invalid body: metadata\.a\.0 must not be an array directly inside an array/);
  const tenThousand = `{"email":"x@e.com","metadata":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
  const r2 = await e2e.ws.api.post('/customers', tenThousand);
  expectError(t, r2, 400);
  t.match(r2.body.error.message, /deeper than 20 levels/);
  for (const tenant of [e2e.ws, other]) {
    const created = await tenant.api.post('/customers', { email: 'y@e.com' });
    t.equal(created.status, 201, 'a later write answers 201');
    t.equal((await tenant.api.get(`/customers/${created.body.id}`)).body.email, 'y@e.com');
  }
});

t.test('every limit, exactly at it and one past it, on every route', async (t) => {
  for (const route of ROUTES) {
    for (const value of atLimits()) {
      const r = await route.write(value);
      t.ok(succeeded(r.status), `${route.name}: at the limits ${r.status} ${r.status >= 300 ? JSON.stringify(r.body).slice(0, 200) : ''}`);
      t.strictSame(await r.stored!(), value, `${route.name}: read back as given`);
    }
    for (const bad of beyondLimits()) {
      const r = await route.write(bad.value);
      expectError(t, r, 400, undefined, `${route.name}: ${bad.name}`);
      const path = [route.field, bad.path].filter(Boolean).join('.');
      // The path and message may hold NUL or a lone surrogate: named as JSON, so the test's output stays text.
      t.ok(r.body.error.message.startsWith(`Invalid body: ${path} `), `${route.name}: ${bad.name} names ${JSON.stringify(path).slice(0, 80)}`);
      t.match(r.body.error.message, bad.says);
    }
  }
});

t.test('property: a generated value is stored as given or refused naming its path, never a 5xx', async (t) => {
  const values = fc.oneof(
    goodObject,
    withOneViolation.map((v) => v.value),
  );
  for (const route of ROUTES) {
    await checkProperty(
      seed,
      fc.asyncProperty(values, async (value) => {
        const r = await route.write(value);
        const problem = freeJsonProblem(value);
        if (problem) {
          if (r.status !== 400 || !String(r.body?.error?.message).startsWith(`Invalid body: ${route.field}`))
            throw new Error(`${route.name}: expected a 400 naming ${problem.path.join('.')}, got ${r.status} ${JSON.stringify(r.body)}`);
          return;
        }
        if (!succeeded(r.status)) throw new Error(`${route.name}: expected 2xx, got ${r.status} ${JSON.stringify(r.body)}`);
        expectSame(await r.stored!(), value, route.name);
      }),
      12,
    );
  }
  // Whatever went through, the read models still follow.
  const after = await other.api.post('/customers', { email: 'after@e.com' });
  t.equal(after.status, 201);
});
