import t from 'tap';
import { expectError } from '../../support/expect';
import { serviceFixture } from '../../support/fixture';

const e2e = serviceFixture();

t.test('create, list by name, patch, delete', async (t) => {
  const billing = await e2e.ws.api.post('/tags', { name: 'Billing', color: '#ff0000' });
  t.equal(billing.status, 201);
  t.match(billing.body, { object: 'tag', id: /^tag_/, name: 'Billing', color: '#ff0000', is_active: true, created_at: String });
  const apple = (await e2e.ws.api.post('/tags', { name: 'apple' })).body;
  t.equal(apple.color, null);
  const zed = (await e2e.ws.api.post('/tags', { name: 'Zed', color: null })).body;
  const list = await e2e.ws.api.get('/tags');
  t.match(list.body, { object: 'list', has_more: false, next_cursor: null });
  t.strictSame(
    list.body.data.map((x: { name: string }) => x.name),
    ['apple', 'Billing', 'Zed'],
    'ordered by name, ignoring case',
  );

  const off = await e2e.ws.api.patch(`/tags/${billing.body.id}`, { is_active: false, color: null });
  t.match(off.body, { is_active: false, color: null, name: 'Billing' });
  t.equal((await e2e.ws.api.patch(`/tags/${billing.body.id}`, { is_active: true })).body.is_active, true);
  t.equal((await e2e.ws.api.patch(`/tags/${zed.id}`, { name: 'Aardvark' })).body.name, 'Aardvark');
  t.strictSame(
    (await e2e.ws.api.get('/tags')).body.data.map((x: { name: string }) => x.name),
    ['Aardvark', 'apple', 'Billing'],
  );

  const del = await e2e.ws.api.delete(`/tags/${apple.id}`);
  t.equal(del.status, 200);
  t.strictSame(del.body, { object: 'tag', id: apple.id, deleted: true });
  t.strictSame(
    (await e2e.ws.api.get('/tags')).body.data.map((x: { name: string }) => x.name),
    ['Aardvark', 'Billing'],
  );
  expectError(t, await e2e.ws.api.delete(`/tags/${apple.id}`), 404, 'not_found');
  expectError(t, await e2e.ws.api.patch(`/tags/${apple.id}`, { name: 'back' }), 404, 'not_found');
});

t.test('names are unique per workspace, ignoring case; freed by rename and delete', async (t) => {
  const a = (await e2e.ws.api.post('/tags', { name: 'Urgent' })).body;
  expectError(t, await e2e.ws.api.post('/tags', { name: ' urgent ' }), 409, 'conflict');
  const b = (await e2e.ws.api.post('/tags', { name: 'Later' })).body;
  expectError(t, await e2e.ws.api.patch(`/tags/${b.id}`, { name: 'URGENT' }), 409, 'conflict');
  t.equal((await e2e.ws.api.patch(`/tags/${a.id}`, { name: 'urgent' })).body.name, 'urgent', 'a tag may change its own case');
  t.equal((await e2e.ws.api.patch(`/tags/${a.id}`, { name: 'Critical' })).status, 200);
  t.equal((await e2e.ws.api.post('/tags', { name: 'Urgent' })).status, 201, 'the old name is free after a rename');
  await e2e.ws.api.delete(`/tags/${b.id}`);
  t.equal((await e2e.ws.api.post('/tags', { name: 'later' })).status, 201, 'a deleted name is free');
});

t.test('concurrent creates of one name: exactly one wins', async (t) => {
  const replies = await Promise.all(Array.from({ length: 6 }, () => e2e.ws.api.post('/tags', { name: 'Racy' })));
  t.strictSame(replies.map((r) => r.status).sort(), [201, 409, 409, 409, 409, 409]);
});

t.test('validation', async (t) => {
  const missing = await e2e.ws.api.post('/tags', {});
  expectError(t, missing, 400);
  t.match(missing.body.error.message, /name is required/);
  expectError(t, await e2e.ws.api.post('/tags', { name: '' }), 400);
  expectError(t, await e2e.ws.api.post('/tags', { name: 'x'.repeat(101) }), 400);
  const typed = await e2e.ws.api.patch('/tags/tag_x', { is_active: 'yes' });
  expectError(t, typed, 400);
  t.match(typed.body.error.message, /is_active must be true or false/);
  expectError(t, await e2e.ws.api.get('/tags?limit=5'), 400, undefined);
});
