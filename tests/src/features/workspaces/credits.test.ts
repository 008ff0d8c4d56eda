import t from 'tap';
import { fold } from '@support/domain';
import { workspaceDecider, WorkspaceEvent } from '@support/workspaces';
import { spec } from '../../support/decider-spec';

const given = spec(workspaceDecider);
const created: WorkspaceEvent = { type: 'workspace.created', data: { id: 'ws_1', name: 'Acme', slug: 'acme', plan: 'pro', credits: 5, sla_tracking: false } };
const charged = (amount: number, turn: string): WorkspaceEvent => ({
  type: 'workspace.credits_charged',
  data: { amount, turn_id: turn, conversation_id: 'conv_1' },
});

t.test('a reply is charged from the balance', async (t) =>
  given([created])
    .when({ type: 'charge', amount: 4, turn_id: 't1', conversation_id: 'conv_1' })
    .then(t, [charged(4, 't1')]),
);

t.test('the balance never goes below zero: a charge it cannot cover is refused', async (t) => {
  given([created, charged(4, 't1')])
    .when({ type: 'charge', amount: 4, turn_id: 't2', conversation_id: 'conv_1' })
    .thenFails(t, 'plan_limit', /credits/);
  given([created, charged(4, 't1')])
    .when({ type: 'charge', amount: 1, turn_id: 't2', conversation_id: 'conv_1' })
    .then(t, [charged(1, 't2')]);
});

t.test('a refund gives the charge back', async (t) => {
  const refunded: WorkspaceEvent = { type: 'workspace.credits_refunded', data: { amount: 4, turn_id: 't1' } };
  given([created, charged(4, 't1')])
    .when({ type: 'refund', amount: 4, turn_id: 't1' })
    .then(t, [refunded]);
  const state = fold(workspaceDecider, [created, charged(4, 't1'), refunded]);
  t.equal(state.exists && state.credits, 5);
});

t.test('setting credits replaces the balance; charges then count from it', async (t) => {
  const state = fold(workspaceDecider, [created, charged(4, 't1'), { type: 'workspace.updated', data: { credits: 10 } }, charged(1, 't2')]);
  t.equal(state.exists && state.credits, 9);
});

t.test('no workspace, no charge', async (t) => given([]).when({ type: 'charge', amount: 1, turn_id: 't', conversation_id: 'c' }).thenFails(t, 'not_found'));
