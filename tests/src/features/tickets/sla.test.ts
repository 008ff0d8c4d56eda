import t from 'tap';
import { slaSignals, SlaView, ticketActivityDecider, TicketEvent } from '@support/tickets';
import { spec } from '../../support/decider-spec';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const view = (over: Partial<SlaView> = {}): SlaView => ({
  status: 'open',
  created_at: iso(0),
  first_response_at: null,
  last_response_at: null,
  resolved_at: null,
  sla_first_response_due_at: iso(100_000),
  sla_next_response_due_at: null,
  sla_next_response_set_at: null,
  sla_resolution_due_at: null,
  sla_signals: {},
  ...over,
});

t.test('at risk from 80 % of the window, breached at the due time', async (t) => {
  t.strictSame(slaSignals(view(), T0 + 79_999), []);
  t.strictSame(slaSignals(view(), T0 + 80_000), [{ kind: 'at_risk', metric: 'first_response', dueAt: iso(100_000), windowStart: iso(0) }]);
  t.strictSame(
    slaSignals(view(), T0 + 100_000).map((s) => s.kind),
    ['breached'],
  );
});
t.test('a met target signals nothing', async (t) => {
  t.strictSame(slaSignals(view({ first_response_at: iso(10) }), T0 + 200_000), []);
  t.strictSame(slaSignals(view({ sla_first_response_due_at: null, sla_resolution_due_at: iso(50_000), status: 'resolved' }), T0 + 60_000), []);
});
t.test('signals already recorded are not repeated; after a breach no late at-risk', async (t) => {
  const due = iso(100_000);
  t.strictSame(slaSignals(view({ sla_signals: { [`at_risk:first_response:${due}`]: true } }), T0 + 90_000), []);
  t.strictSame(slaSignals(view({ sla_signals: { [`breached:first_response:${due}`]: true } }), T0 + 90_000), []);
  t.strictSame(
    slaSignals(view(), T0 + 150_000).map((s) => s.kind),
    ['breached'],
    'a monitor that was down sends only the breach',
  );
});
t.test('next response: its window starts when the target was set, and a later reply meets it', async (t) => {
  const v = view({ sla_first_response_due_at: null, first_response_at: iso(1), sla_next_response_set_at: iso(50_000), sla_next_response_due_at: iso(60_000) });
  t.strictSame(slaSignals(v, T0 + 57_999), [], 'not before 80 %');
  t.strictSame(
    slaSignals(v, T0 + 58_000).map((s) => [s.kind, s.metric, s.windowStart]),
    [['at_risk', 'next_response', iso(50_000)]],
  );
  t.strictSame(
    slaSignals({ ...v, last_response_at: iso(40_000) }, T0 + 61_000).map((s) => s.kind),
    ['breached'],
    'a reply before the window does not count',
  );
  t.strictSame(slaSignals({ ...v, last_response_at: iso(55_000) }, T0 + 61_000), []);
});

const given = spec(ticketActivityDecider);
const created: TicketEvent = {
  type: 'ticket.created',
  data: {
    id: 'tkt_1',
    workspace_id: 'ws_1',
    number: 1,
    type: 'question',
    subject: 'Help',
    description: null,
    status: 'open',
    priority: 'normal',
    tags: [],
    assignee_id: null,
    team_id: null,
    customer_id: null,
    category_id: null,
    source_conversation_id: 'conv_1',
    sla_status: null,
    sla_policy_id: null,
    first_response_at: null,
    sla_first_response_due_at: iso(100_000),
    sla_next_response_due_at: null,
    sla_resolution_due_at: null,
    summary: null,
    resolved_at: null,
    closed_at: null,
    created_at: iso(0),
  },
};
const signal = { type: 'signal_sla' as const, kind: 'at_risk' as const, metric: 'first_response' as const, dueAt: iso(100_000), windowStart: iso(0) };

t.test('a signal is recorded once per ticket, metric and target', async (t) => {
  const atRisk: TicketEvent = { type: 'sla.at_risk', data: { id: 'tkt_1', sla_metric: 'first_response', sla_due_at: iso(100_000) } };
  given([created]).when(signal).then(t, [atRisk]);
  given([created, atRisk]).when(signal).then(t, []);
  given([created, atRisk])
    .when({ ...signal, kind: 'breached' })
    .then(t, [{ type: 'sla.breached', data: atRisk.data }]);
  given([created, atRisk])
    .when({ ...signal, dueAt: iso(200_000) })
    .then(t, [{ type: 'sla.at_risk', data: { ...atRisk.data, sla_due_at: iso(200_000) } }], 'a new target can be signalled again');
});
t.test('a met target is not signalled, even if the monitor asks', async (t) => {
  const responded: TicketEvent = { type: 'ticket.updated', data: { id: 'tkt_1', changes: { first_response_at: iso(5) } } };
  given([created, responded])
    .when({ ...signal, kind: 'breached' })
    .then(t, []);
});
t.test('replies: the first sets first_response_at, later ones only the latest reply', async (t) => {
  given([created])
    .when({ type: 'record_response', message_id: 'msg_1', at: iso(10) })
    .then(t, [
      { type: 'ticket.updated', data: { id: 'tkt_1', changes: { first_response_at: iso(10) } } },
      { type: 'ticket.response_recorded', data: { id: 'tkt_1', message_id: 'msg_1', responded_at: iso(10) } },
    ]);
  const first: TicketEvent[] = [
    { type: 'ticket.updated', data: { id: 'tkt_1', changes: { first_response_at: iso(10) } } },
    { type: 'ticket.response_recorded', data: { id: 'tkt_1', message_id: 'msg_1', responded_at: iso(10) } },
  ];
  given([created, ...first])
    .when({ type: 'record_response', message_id: 'msg_2', at: iso(20) })
    .then(t, [{ type: 'ticket.response_recorded', data: { id: 'tkt_1', message_id: 'msg_2', responded_at: iso(20) } }]);
  given([created, ...first])
    .when({ type: 'record_response', message_id: 'msg_1', at: iso(10) })
    .then(t, [], 'the same reply again records nothing');
});
t.test('an unknown ticket', async (t) => given([]).when(signal).thenFails(t, 'not_found'));
