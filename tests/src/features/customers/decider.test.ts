import t from 'tap';
import { customerDecider, CustomerEvent, identitiesOf } from '@support/customers';
import { spec } from '../../support/decider-spec';

const given = spec(customerDecider);
const created: CustomerEvent = {
  type: 'customer.created',
  data: { id: 'cus_1', workspace_id: 'ws_1', email: 'ada@example.com', phone: null, name: 'Ada', external_id: null, metadata: {}, status: 'active', tags: [] },
};
const create = { type: 'create' as const, id: 'cus_1', workspace_id: 'ws_1' };

t.test('a customer is created active, without tags', async (t) =>
  given([])
    .when({ ...create, email: ' ada@example.com ', name: 'Ada' })
    .then(t, [created]),
);
t.test('a customer needs an email, phone or external id', async (t) => {
  given([])
    .when({ ...create, name: 'Nobody' })
    .thenFails(t, 'validation', /email, phone or external_id/);
  given([])
    .when({ ...create, email: '   ' })
    .thenFails(t, 'validation');
});
t.test('an external id alone is enough', async (t) => {
  const r = customerDecider.decide({ ...create, external_id: 'crm-1' }, customerDecider.initialState);
  t.equal(r._tag, 'Right');
});
t.test('email must look like one', async (t) =>
  given([])
    .when({ ...create, email: 'not-an-email' })
    .thenFails(t, 'validation', /e-mail/),
);
t.test('phone must have digits', async (t) =>
  given([])
    .when({ ...create, email: 'a@b.co', phone: '---' })
    .thenFails(t, 'validation', /digits/),
);
t.test('update records only what changed', async (t) =>
  given([created])
    .when({ type: 'update', changes: { name: 'Ada', status: 'archived', tags: ['vip', 'vip', ' b '] } })
    .then(t, [{ type: 'customer.updated', data: { id: 'cus_1', changes: { status: 'archived', tags: ['vip', 'b'] } } }]),
);
t.test('an update that changes nothing records nothing', async (t) =>
  given([created])
    .when({ type: 'update', changes: { name: 'Ada' } })
    .then(t, []),
);
t.test('updating an unknown customer fails', async (t) =>
  given([])
    .when({ type: 'update', changes: { name: 'X' } })
    .thenFails(t, 'not_found'),
);
t.test('updated email is checked', async (t) =>
  given([created])
    .when({ type: 'update', changes: { email: 'nope' } })
    .thenFails(t, 'validation'),
);
t.test('identities normalise for dedup', async (t) => {
  t.strictSame(identitiesOf({ email: ' Ada@Example.COM ', phone: '+1 (555) 010-99', external_id: 'X-1' }), [
    { kind: 'external_id', value: 'X-1' },
    { kind: 'email', value: 'ada@example.com' },
    { kind: 'phone', value: '+155501099' },
  ]);
});
