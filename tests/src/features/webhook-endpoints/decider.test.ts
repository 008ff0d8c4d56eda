import t from 'tap';
import { webhookEndpointDecider, WebhookEndpointEvent } from '@support/webhook-endpoints';
import { spec } from '../../support/decider-spec';

const given = spec(webhookEndpointDecider);
const data = { id: 'we_1', workspace_id: 'ws_1', url: 'https://x.io/h', description: null, enabled_events: ['*'], secret: 'whsec_a' };
const created: WebhookEndpointEvent = { type: 'webhook_endpoint.created', data };
const failed = (n: number, deliveryId = `d${n}`): WebhookEndpointEvent => ({
  type: 'webhook_endpoint.delivery_failed',
  data: { id: 'we_1', delivery_id: deliveryId, error: 'HTTP 500', consecutive_failures: n },
});
const failures = (n: number) => Array.from({ length: n }, (_, i) => failed(i + 1));
const attempt = (ok: boolean, gone = false) => ({ type: 'record_attempt' as const, delivery_id: 'dx', ok, gone, error: ok ? null : 'HTTP 500' });
const disabled: WebhookEndpointEvent = { type: 'webhook_endpoint.disabled', data: { id: 'we_1', reason: 'consecutive_failures', last_error: 'HTTP 500' } };

t.test('create: known event types or "*" alone', async (t) => {
  given([])
    .when({ type: 'create', ...data, enabled_events: ['message.created', 'message.created'] })
    .then(t, [{ type: 'webhook_endpoint.created', data: { ...data, enabled_events: ['message.created'] } }]);
  given([])
    .when({ type: 'create', ...data, enabled_events: ['*', 'message.created'] })
    .thenFails(t, 'validation', /alone/);
  given([])
    .when({ type: 'create', ...data, enabled_events: ['nope'] })
    .thenFails(t, 'validation', /nope/);
  given([])
    .when({ type: 'create', ...data, enabled_events: [] })
    .thenFails(t, 'validation');
});
t.test('a failure counts; the 10th warns; the 15th disables', async (t) => {
  given([created])
    .when(attempt(false))
    .then(t, [failed(1, 'dx')]);
  given([created, ...failures(9)])
    .when(attempt(false))
    .then(t, [failed(10, 'dx'), { type: 'webhook_endpoint.failure_warning', data: { id: 'we_1', consecutive_failures: 10, last_error: 'HTTP 500' } }]);
  given([created, ...failures(14)])
    .when(attempt(false))
    .then(t, [failed(15, 'dx'), disabled]);
});
t.test('a success resets the counter; with nothing to reset it records nothing', async (t) => {
  given([created, ...failures(3)])
    .when(attempt(true))
    .then(t, [{ type: 'webhook_endpoint.delivery_succeeded', data: { id: 'we_1', delivery_id: 'dx' } }]);
  given([created]).when(attempt(true)).then(t, []);
});
t.test('410 Gone disables at once', async (t) =>
  given([created])
    .when(attempt(false, true))
    .then(t, [failed(1, 'dx'), { type: 'webhook_endpoint.disabled', data: { id: 'we_1', reason: 'gone', last_error: 'HTTP 500' } }]),
);
t.test('while disabled, attempts leave the counter where it stopped', async (t) => {
  given([created, ...failures(15), disabled])
    .when(attempt(false))
    .then(t, []);
  given([created, ...failures(15), disabled])
    .when(attempt(true))
    .then(t, []);
});
t.test('re-enabling clears the counter even when the status already says enabled', async (t) => {
  given([created, ...failures(15), disabled])
    .when({ type: 'update', workspace_id: 'ws_1', changes: { status: 'enabled' } })
    .then(t, [{ type: 'webhook_endpoint.updated', data: { id: 'we_1', changes: { status: 'enabled' } } }]);
  given([created, ...failures(2)])
    .when({ type: 'update', workspace_id: 'ws_1', changes: { status: 'enabled' } })
    .then(t, [{ type: 'webhook_endpoint.updated', data: { id: 'we_1', changes: { status: 'enabled' } } }]);
  given([created])
    .when({ type: 'update', workspace_id: 'ws_1', changes: { status: 'enabled' } })
    .then(t, []);
});
t.test('another workspace, a deleted endpoint', async (t) => {
  given([created]).when({ type: 'delete', workspace_id: 'ws_2' }).thenFails(t, 'not_found');
  given([created, { type: 'webhook_endpoint.deleted', data: { id: 'we_1' } }])
    .when({ type: 'roll_secret', workspace_id: 'ws_1', secret: 'whsec_b' })
    .thenFails(t, 'not_found');
  given([created, { type: 'webhook_endpoint.deleted', data: { id: 'we_1' } }])
    .when(attempt(false))
    .then(t, [], 'outcomes for a deleted endpoint are dropped');
});
