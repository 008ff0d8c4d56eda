import t from 'tap';
import { TicketCommand, ticketDecider, TicketEvent, TicketInput, ticketNumberDecider } from '@support/tickets';
import { spec } from '../../support/decider-spec';

const given = spec(ticketDecider);
const AT = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-02T10:00:00.000Z';
const importing = (input: Record<string, unknown>, extra: Partial<TicketCommand> = {}): TicketCommand => ({
  type: 'import',
  id: 'tkt_1',
  workspace_id: 'ws_1',
  at: AT,
  next_number: 7,
  input: input as TicketInput,
  ...extra,
});

const created: TicketEvent = {
  type: 'ticket.created',
  data: {
    id: 'tkt_1',
    workspace_id: 'ws_1',
    number: 7,
    type: 'question',
    subject: 'Printer on fire',
    description: null,
    status: 'open',
    priority: 'normal',
    tags: [],
    assignee_id: null,
    team_id: null,
    customer_id: null,
    category_id: null,
    source_conversation_id: null,
    sla_status: null,
    sla_policy_id: null,
    first_response_at: null,
    sla_first_response_due_at: null,
    sla_next_response_due_at: null,
    sla_resolution_due_at: null,
    summary: null,
    resolved_at: null,
    closed_at: null,
    created_at: AT,
  },
};

t.test('a new ticket gets defaults, the allocated number and the command time', async (t) =>
  given([])
    .when(importing({ subject: 'Printer on fire' }))
    .then(t, [created]),
);

t.test('given number, created_at and fields are kept; tags are trimmed and deduplicated', async (t) =>
  given([])
    .when(
      importing({
        subject: 'Printer on fire',
        number: 1001,
        created_at: '2025-12-31T23:00:00+01:00',
        priority: 'urgent',
        type: 'incident',
        tags: [' hw ', 'hw', ''],
        customer_id: 'cus_9',
        object: 'ticket',
        updated_at: '2026-01-01T00:00:00Z',
      }),
    )
    .then(t, [
      {
        ...created,
        data: {
          ...created.data,
          number: 1001,
          created_at: '2025-12-31T22:00:00.000Z',
          priority: 'urgent',
          type: 'incident',
          tags: ['hw'],
          customer_id: 'cus_9',
        },
      },
    ]),
);

t.test('a ticket created resolved or closed is stamped with the command time unless given', async (t) => {
  given([])
    .when(importing({ subject: 'Printer on fire', status: 'resolved' }))
    .then(t, [{ ...created, data: { ...created.data, status: 'resolved', resolved_at: AT } }], 'no ticket.resolved on create');
  given([])
    .when(importing({ subject: 'Printer on fire', status: 'closed', closed_at: '2026-01-05T00:00:00Z' }))
    .then(t, [{ ...created, data: { ...created.data, status: 'closed', closed_at: '2026-01-05T00:00:00.000Z' } }]);
});

t.test('a new ticket without any number is refused', async (t) =>
  given([])
    .when(importing({ subject: 'x' }, { next_number: null }))
    .thenFails(t, 'validation', /number/),
);

t.test('values outside the vocabulary are refused, naming the field and the allowed values', async (t) => {
  given([])
    .when(importing({ subject: 'x', status: 'done' }))
    .thenFails(t, 'validation', /status must be one of open, pending, on_hold, resolved, closed \(got "done"\)/);
  given([])
    .when(importing({ subject: 'x', priority: 'p1' }))
    .thenFails(t, 'validation', /priority must be one of low, normal, high, urgent/);
  given([])
    .when(importing({ subject: 'x', type: 'bug' }))
    .thenFails(t, 'validation', /type must be one of question, incident, problem, task/);
  given([])
    .when(importing({ subject: ' ' }))
    .thenFails(t, 'validation', /subject must not be blank/);
  given([])
    .when(importing({ subject: 'x', created_at: 'yesterday' }))
    .thenFails(t, 'validation', /created_at must be an ISO 8601 date-time/);
  given([])
    .when(importing({ subject: 'x', id: 'cus_01ARZ3NDEKTSV4RRFFQ69G5FAV' }))
    .thenFails(t, 'validation', /id must be tkt_ followed by a ULID/);
  given([])
    .when(importing({ subject: 'x', colour: 'red' }))
    .thenFails(t, 'validation', /colour is not a known field/);
});

t.test('an update records only what changed, and nothing when nothing did', async (t) => {
  given([created])
    .when(importing({ subject: 'Printer on fire', priority: 'high', tags: ['hw'] }))
    .then(t, [{ type: 'ticket.updated', data: { id: 'tkt_1', changes: { priority: 'high', tags: ['hw'] } } }]);
  given([created])
    .when(importing({ subject: 'Printer on fire', status: 'open' }, { next_number: 99 }))
    .then(t, [], 'unchanged: no event, number untouched');
});

t.test('moving to resolved adds ticket.resolved with the time; already resolved does not', async (t) => {
  const update = given([created]).when(importing({ subject: 'Printer on fire', status: 'resolved' }, { at: LATER }));
  update.then(t, [
    { type: 'ticket.updated', data: { id: 'tkt_1', changes: { status: 'resolved', resolved_at: LATER } } },
    { type: 'ticket.resolved', data: { id: 'tkt_1', resolved_at: LATER } },
  ]);
  const resolved: TicketEvent[] = [
    created,
    { type: 'ticket.updated', data: { id: 'tkt_1', changes: { status: 'resolved', resolved_at: LATER } } },
    { type: 'ticket.resolved', data: { id: 'tkt_1', resolved_at: LATER } },
  ];
  given(resolved)
    .when(importing({ subject: 'Printer on fire', status: 'resolved', summary: 'Replaced' }))
    .then(t, [{ type: 'ticket.updated', data: { id: 'tkt_1', changes: { summary: 'Replaced' } } }]);
  given([created])
    .when(importing({ subject: 'Printer on fire', status: 'resolved', resolved_at: '2026-02-01T00:00:00Z' }))
    .then(
      t,
      [
        { type: 'ticket.updated', data: { id: 'tkt_1', changes: { status: 'resolved', resolved_at: '2026-02-01T00:00:00.000Z' } } },
        { type: 'ticket.resolved', data: { id: 'tkt_1', resolved_at: '2026-02-01T00:00:00.000Z' } },
      ],
      'a given resolved_at is used',
    );
  given([created])
    .when(importing({ subject: 'Printer on fire', status: 'closed' }, { at: LATER }))
    .then(
      t,
      [{ type: 'ticket.updated', data: { id: 'tkt_1', changes: { status: 'closed', closed_at: LATER } } }],
      'closing stamps closed_at, no ticket.resolved',
    );
});

t.test("another workspace's ticket is not touched", async (t) =>
  given([created])
    .when(importing({ subject: 'Mine now' }, { workspace_id: 'ws_2' }))
    .thenFails(t, 'conflict', /another workspace/),
);

const numbers = spec(ticketNumberDecider);
t.test('ticket numbers: next after the highest, given ones kept and skipped past', async (t) => {
  numbers([])
    .when({
      type: 'allocate',
      tickets: [
        { ticket_id: 'a', number: null },
        { ticket_id: 'b', number: null },
      ],
    })
    .then(t, [
      { type: 'ticket_number.allocated', data: { ticket_id: 'a', number: 1 } },
      { type: 'ticket_number.allocated', data: { ticket_id: 'b', number: 2 } },
    ]);
  const history = [{ type: 'ticket_number.allocated' as const, data: { ticket_id: 'a', number: 5 } }];
  numbers(history)
    .when({
      type: 'allocate',
      tickets: [
        { ticket_id: 'b', number: 3 },
        { ticket_id: 'c', number: null },
        { ticket_id: 'd', number: 10 },
        { ticket_id: 'e', number: null },
      ],
    })
    .then(
      t,
      [
        { type: 'ticket_number.allocated', data: { ticket_id: 'c', number: 6 } },
        { type: 'ticket_number.allocated', data: { ticket_id: 'd', number: 10 } },
        { type: 'ticket_number.allocated', data: { ticket_id: 'e', number: 11 } },
      ],
      'a lower given number needs no allocation; a higher one moves the sequence',
    );
  numbers([])
    .when({ type: 'allocate', tickets: [{ ticket_id: 'a', number: 0 }] })
    .thenFails(t, 'validation');
});
