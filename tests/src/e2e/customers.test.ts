import t from 'tap';
import { expectError } from '../support/expect';
import { serviceFixture } from '../support/fixture';
import { tenant } from '../support/workspace';

const e2e = serviceFixture();

t.test('create returns every field of the resource', async (t) => {
  const r = await e2e.ws.api.post('/customers', {
    email: 'grace@example.com',
    phone: '+1 555 0100',
    name: 'Grace Hopper',
    external_id: 'crm-42',
    metadata: { plan: 'gold', seats: 3 },
  });
  t.equal(r.status, 201);
  t.match(r.body, {
    object: 'customer',
    id: /^cus_[0-9A-Z]{26}$/,
    email: 'grace@example.com',
    phone: '+1 555 0100',
    name: 'Grace Hopper',
    avatar_url: null,
    status: 'active',
    tags: [],
    external_id: 'crm-42',
    metadata: { plan: 'gold', seats: 3 },
    conversation_count: 0,
    first_contact_at: null,
    last_contact_at: null,
    created_at: String,
  });
  t.ok(!Number.isNaN(Date.parse(r.body.created_at)), 'created_at is ISO 8601');
  t.strictSame((await e2e.ws.api.get(`/customers/${r.body.id}`)).body, r.body, 'GET returns the same resource');
});

t.test('dedup: email ignoring case, phone ignoring format, external_id exactly', async (t) => {
  const first = (await e2e.ws.api.post('/customers', { email: 'Dedup@Example.com', name: 'Dee' })).body;
  const byEmail = await e2e.ws.api.post('/customers', { email: ' dedup@EXAMPLE.com ' });
  t.equal(byEmail.status, 201, 'a match answers 201 too (documented)');
  t.equal(byEmail.body.id, first.id);
  t.equal(byEmail.body.name, 'Dee', 'the existing record is returned unchanged');
  const phone = (await e2e.ws.api.post('/customers', { phone: '+44 (20) 7946-0001' })).body;
  t.equal((await e2e.ws.api.post('/customers', { phone: '+44 20 79460001', name: 'Other' })).body.id, phone.id);
  const ext = (await e2e.ws.api.post('/customers', { external_id: 'ext-A' })).body;
  t.equal((await e2e.ws.api.post('/customers', { external_id: 'ext-A' })).body.id, ext.id);
  t.not((await e2e.ws.api.post('/customers', { external_id: 'EXT-A' })).body.id, ext.id, 'external ids are exact');
  // A match on any identity wins, the strongest (external_id) first.
  t.equal((await e2e.ws.api.post('/customers', { email: 'new@example.com', external_id: 'ext-A' })).body.id, ext.id);
  const listed = (await e2e.ws.api.get('/customers?search=dedup')).body.data;
  t.equal(listed.length, 1, 'no duplicate record was made');
});

t.test('concurrent creates of one person make one customer', async (t) => {
  const replies = await Promise.all(Array.from({ length: 8 }, () => e2e.ws.api.post('/customers', { email: 'race@example.com' })));
  t.strictSame(
    replies.map((r) => r.status),
    Array(8).fill(201),
  );
  t.equal(new Set(replies.map((r) => r.body.id)).size, 1);
});

t.test('create needs an email, phone or external_id, and valid fields', async (t) => {
  const none = await e2e.ws.api.post('/customers', { name: 'Nobody' });
  expectError(t, none, 400, 'validation_error');
  t.match(none.body.error.message, /email, phone or external_id/);
  const typed = await e2e.ws.api.post('/customers', { email: 42, metadata: 'x' });
  expectError(t, typed, 400);
  t.notOk(typed.body.error.code, 'schema failures carry no code');
  t.match(typed.body.error.message, /email must be a string/);
  t.match(typed.body.error.message, /metadata must be an object/);
  expectError(t, await e2e.ws.api.post('/customers', { email: 'not-an-email' }), 400, 'validation_error');
  // The document says a phone needs a digit 0-9 ([0-9], not \d, which some engines read as any
  // script's digit): one with only another script's digits is refused, a single 0-9 digit is enough.
  const digits = await e2e.ws.api.post('/customers', { phone: '\u0663\u0664', external_id: 'arabic-indic' });
  expectError(t, digits, 400, 'validation_error');
  t.strictSame(digits.body.error.message, 'phone "\u0663\u0664" has no digits');
  t.equal((await e2e.ws.api.post('/customers', { phone: '7' })).status, 201);
  const unknown = await e2e.ws.api.post('/customers', { email: 'a@b.co', nickname: 'x' });
  t.match(unknown.body.error.message, /nickname is not a known field/);
});

t.test('PATCH changes the given fields, with read-your-writes', async (t) => {
  const c = (await e2e.ws.api.post('/customers', { email: 'patch@example.com', name: 'Before' })).body;
  for (let i = 0; i < 20; i++) {
    const name = `Name ${i}`;
    const r = await e2e.ws.api.patch(`/customers/${c.id}`, { name });
    t.equal(r.body.name, name);
    t.equal((await e2e.ws.api.get(`/customers/${c.id}`)).body.name, name, `read ${i} sees write ${i}`);
  }
  const r = await e2e.ws.api.patch(`/customers/${c.id}`, { status: 'archived', tags: ['vip', 'vip', 'beta'], phone: '555-0199' });
  t.equal(r.status, 200);
  t.match(r.body, { status: 'archived', tags: ['vip', 'beta'], phone: '555-0199', email: 'patch@example.com' });
  t.ok(r.body.updated_at >= c.updated_at);
  expectError(t, await e2e.ws.api.patch(`/customers/${c.id}`, { status: 'deleted' }), 400);
  expectError(t, await e2e.ws.api.patch(`/customers/${c.id}`, { external_id: 'x' }), 400);
  expectError(t, await e2e.ws.api.patch('/customers/cus_nope', { name: 'x' }), 404, 'not_found');
  expectError(t, await e2e.ws.api.get('/customers/cus_01ARZ3NDEKTSV4RRFFQ69G5FAV'), 404, 'not_found');
});

t.test('PATCH moves dedup identities: the old one frees up, a taken one is a conflict', async (t) => {
  const a = (await e2e.ws.api.post('/customers', { email: 'a.move@example.com' })).body;
  const b = (await e2e.ws.api.post('/customers', { email: 'b.move@example.com' })).body;
  const clash = await e2e.ws.api.patch(`/customers/${b.id}`, { email: 'A.MOVE@example.com' });
  expectError(t, clash, 409, 'conflict');
  t.equal((await e2e.ws.api.patch(`/customers/${a.id}`, { email: 'a.new@example.com' })).body.email, 'a.new@example.com');
  t.equal((await e2e.ws.api.post('/customers', { email: 'a.new@example.com' })).body.id, a.id, 'the new email matches a');
  const freed = await e2e.ws.api.post('/customers', { email: 'a.move@example.com' });
  t.not(freed.body.id, a.id, 'the old email belongs to nobody now');
});

t.test('read-your-writes: a created customer is in the very next GET and list', async (t) => {
  for (let i = 0; i < 15; i++) {
    const c = (await e2e.ws.api.post('/customers', { email: `ryw${i}@example.com` })).body;
    t.equal((await e2e.ws.api.get(`/customers/${c.id}`)).status, 200);
    t.equal((await e2e.ws.api.get('/customers?limit=1')).body.data[0].id, c.id);
  }
});

t.test('list filters by status and searches name, email and phone without case', async (t) => {
  const other = await tenant(e2e.svc.baseUrl, e2e.dir);
  const mk = (body: object) => other.api.post('/customers', body).then((r) => r.body);
  const ada = await mk({ email: 'ada@lovelace.org', name: 'Ada Lovelace', phone: '+1 555 0001' });
  const alan = await mk({ email: 'alan@turing.org', name: 'Alan Turing' });
  const kat = await mk({ phone: '+1 555 0002', name: 'Katherine' });
  await other.api.patch(`/customers/${alan.id}`, { status: 'inactive' });
  const ids = async (q: string) => (await other.api.get(`/customers${q}`)).body.data.map((c: { id: string }) => c.id);
  t.strictSame(await ids(''), [kat.id, alan.id, ada.id], 'newest first');
  t.strictSame(await ids('?status=inactive'), [alan.id]);
  t.strictSame(await ids('?status=active'), [kat.id, ada.id]);
  t.strictSame(await ids('?search=LOVELACE'), [ada.id]);
  t.strictSame(await ids('?search=turing.ORG'), [alan.id]);
  t.strictSame(await ids('?search=555%200002'), [kat.id]);
  t.strictSame(await ids('?search=a&status=active'), [kat.id, ada.id]);
  t.strictSame(await ids('?search=%25'), [], 'a % is a literal character');
  expectError(t, await other.api.get('/customers?status=gone'), 400);
});
