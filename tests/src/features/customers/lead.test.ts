import t from 'tap';
import { customerDecider, CustomerEvent, leadChanges } from '@support/customers';
import { spec } from '../../support/decider-spec';

const given = spec(customerDecider);
const created: CustomerEvent = {
  type: 'customer.created',
  data: { id: 'cus_1', workspace_id: 'ws_1', email: null, phone: '+1 555 0100', name: null, external_id: null, metadata: {}, status: 'active', tags: [] },
};
const capture = (changes: object, captured = { email: 'ann@example.com', phone: null }) => ({
  type: 'capture_lead' as const,
  conversation_id: 'conv_1',
  captured,
  changes,
});

t.test('a captured e-mail updates the customer and records lead.captured', async (t) =>
  given([created])
    .when(capture({ email: 'ann@example.com' }))
    .then(t, [
      { type: 'customer.updated', data: { id: 'cus_1', changes: { email: 'ann@example.com' } } },
      { type: 'lead.captured', data: { id: 'cus_1', conversation_id: 'conv_1', email: 'ann@example.com', phone: null } },
    ]),
);

t.test('a value the customer already has, or may not take, is recorded as captured without a change', async (t) =>
  given([created])
    .when(capture({}))
    .then(t, [{ type: 'lead.captured', data: { id: 'cus_1', conversation_id: 'conv_1', email: 'ann@example.com', phone: null } }]),
);

t.test('no customer, no capture', async (t) =>
  given([])
    .when(capture({ email: 'ann@example.com' }))
    .thenFails(t, 'not_found'),
);

t.test("a lead replaces its own customer's details, fills in the API client's, and changes none of a customer it matched", async (t) => {
  const current = { email: 'api@example.com', phone: null };
  const typed = { email: 'chat@example.com', phone: '+1 555 0199' };
  t.strictSame(
    (['replace', 'fill', 'none'] as const).map((may) => leadChanges(current, typed, may)),
    [typed, { phone: '+1 555 0199' }, {}],
  );
  t.strictSame(leadChanges({ email: null, phone: null }, typed, 'fill'), typed, 'all missing: all filled in');
});
