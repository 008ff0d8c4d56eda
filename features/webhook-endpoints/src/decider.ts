import * as E from 'fp-ts/Either';
import { changedFields, Decider, fail } from '@support/domain';
import { WebhookEndpointChanges, WebhookEndpointEvent } from './events';
import { DISABLE_AFTER_FAILURES, WARN_AFTER_FAILURES, WEBHOOK_EVENT_TYPES } from './event-types';

type Created = Extract<WebhookEndpointEvent, { type: 'webhook_endpoint.created' }>['data'];
export type WebhookEndpointState =
  { status: 'absent' } | { status: 'deleted'; id: string; workspace_id: string } | ({ status: 'enabled' | 'disabled'; consecutive_failures: number } & Created);

export type WebhookEndpointCommand =
  | ({ type: 'create' } & Created)
  | { type: 'update'; workspace_id: string; changes: WebhookEndpointChanges }
  | { type: 'delete'; workspace_id: string }
  | { type: 'roll_secret'; workspace_id: string; secret: string }
  /** Outcome of one delivery attempt. `gone`: the receiver answered 410. */
  | { type: 'record_attempt'; delivery_id: string; ok: boolean; gone: boolean; error: string | null };

/** `["*"]` alone, or known event types without repeats. */
export const checkEnabledEvents = (events: readonly string[]) => {
  if (events.length === 0) return fail('validation', 'enabled_events must name at least one event type, or be ["*"]');
  if (events.includes('*')) return events.length === 1 ? E.right(['*']) : fail('validation', 'enabled_events: "*" must stand alone');
  const unknown = events.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) return fail('validation', `enabled_events: unknown event types ${unknown.join(', ')}`);
  return E.right([...new Set(events)]);
};

export const webhookEndpointDecider: Decider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState> = {
  initialState: { status: 'absent' },
  decide(command, state) {
    if (command.type === 'create') {
      if (state.status !== 'absent') return fail('conflict', `endpoint ${command.id} already exists`);
      const events = checkEnabledEvents(command.enabled_events);
      if (E.isLeft(events)) return events;
      const { type: _type, ...data } = command;
      return E.right([{ type: 'webhook_endpoint.created', data: { ...data, enabled_events: events.right } }]);
    }
    if (state.status === 'absent' || state.status === 'deleted')
      return command.type === 'record_attempt' ? E.right([]) : fail('not_found', 'webhook endpoint not found');
    if (command.type !== 'record_attempt' && command.workspace_id !== state.workspace_id) return fail('not_found', 'webhook endpoint not found');
    const id = state.id;
    switch (command.type) {
      case 'delete':
        return E.right([{ type: 'webhook_endpoint.deleted', data: { id } }]);
      case 'roll_secret':
        return E.right([{ type: 'webhook_endpoint.secret_rolled', data: { id, secret: command.secret } }]);
      case 'update': {
        let requested = command.changes;
        if (requested.enabled_events) {
          const events = checkEnabledEvents(requested.enabled_events);
          if (E.isLeft(events)) return events;
          requested = { ...requested, enabled_events: events.right };
        }
        const changes = changedFields(state, requested) as WebhookEndpointChanges;
        // Re-enabling clears the failure counter (spec 3), even when it was not disabled.
        const reset = requested.status === 'enabled' && state.consecutive_failures > 0;
        if (Object.keys(changes).length === 0 && !reset) return E.right([]);
        return E.right([{ type: 'webhook_endpoint.updated', data: { id, changes: reset ? { ...changes, status: 'enabled' } : changes } }]);
      }
      case 'record_attempt': {
        // While disabled the counter stands still (attempts already in flight, pings): it
        // freezes at the disable, and re-enabling clears it.
        if (state.status !== 'enabled') return E.right([]);
        if (command.ok) {
          return E.right(
            state.consecutive_failures > 0 ? [{ type: 'webhook_endpoint.delivery_succeeded', data: { id, delivery_id: command.delivery_id } }] : [],
          );
        }
        const error = command.error ?? 'delivery failed';
        const failures = state.consecutive_failures + 1;
        const events: WebhookEndpointEvent[] = [
          { type: 'webhook_endpoint.delivery_failed', data: { id, delivery_id: command.delivery_id, error, consecutive_failures: failures } },
        ];
        if (command.gone) events.push({ type: 'webhook_endpoint.disabled', data: { id, reason: 'gone', last_error: error } });
        else if (failures >= DISABLE_AFTER_FAILURES)
          events.push({ type: 'webhook_endpoint.disabled', data: { id, reason: 'consecutive_failures', last_error: error } });
        else if (failures === WARN_AFTER_FAILURES)
          events.push({ type: 'webhook_endpoint.failure_warning', data: { id, consecutive_failures: failures, last_error: error } });
        return E.right(events);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'webhook_endpoint.created':
        return { status: 'enabled', consecutive_failures: 0, ...event.data };
      case 'webhook_endpoint.deleted':
        return state.status === 'absent' ? state : { status: 'deleted', id: state.id, workspace_id: state.workspace_id };
      default:
        break;
    }
    if (state.status !== 'enabled' && state.status !== 'disabled') return state;
    switch (event.type) {
      case 'webhook_endpoint.updated': {
        const reset = event.data.changes.status === 'enabled';
        return { ...state, ...event.data.changes, consecutive_failures: reset ? 0 : state.consecutive_failures };
      }
      case 'webhook_endpoint.secret_rolled':
        return { ...state, secret: event.data.secret };
      case 'webhook_endpoint.delivery_failed':
        return { ...state, consecutive_failures: event.data.consecutive_failures };
      case 'webhook_endpoint.delivery_succeeded':
        return { ...state, consecutive_failures: 0 };
      case 'webhook_endpoint.disabled':
        return { ...state, status: 'disabled' };
      default:
        return state;
    }
  },
};
