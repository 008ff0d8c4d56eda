import * as E from 'fp-ts/Either';
import { Decider, fail } from '@support/domain';
import { TicketEvent } from './events';
import { signalKey, SlaKind, SlaMetric } from './sla-events';
import { ticketDecider, TicketState } from './decider';

/** At-risk threshold: this share of a target's window has elapsed (documented in docs/guides/sla.md). */
export const AT_RISK_SHARE = 0.8;

/** What the SLA monitor reads of a ticket (the read model has the times the decider cannot). */
export interface SlaView {
  status: string;
  created_at: string;
  first_response_at: string | null;
  last_response_at: string | null;
  resolved_at: string | null;
  sla_first_response_due_at: string | null;
  sla_next_response_due_at: string | null;
  /** When the current next-response target was set: its window starts there. */
  sla_next_response_set_at: string | null;
  sla_resolution_due_at: string | null;
  /** Signals already recorded, keyed by `signalKey`. */
  sla_signals: Record<string, true>;
}

const DONE = new Set(['resolved', 'closed']);

/** Whether a target is met, as far as the ticket shows. */
const met = (metric: SlaMetric, t: Pick<SlaView, 'status' | 'first_response_at' | 'last_response_at' | 'resolved_at'>, windowStart: string): boolean => {
  switch (metric) {
    case 'first_response':
      return t.first_response_at !== null;
    case 'next_response':
      return t.last_response_at !== null && t.last_response_at >= windowStart;
    case 'resolution':
      return DONE.has(t.status) || t.resolved_at !== null;
  }
};

export interface SlaSignal {
  kind: SlaKind;
  metric: SlaMetric;
  dueAt: string;
  windowStart: string;
}

/**
 * Pure: the signals a ticket calls for at `now`. A missed target is breached; one with at
 * least 80 % of its window gone is at risk. Once breached, a late at-risk is not sent.
 */
export const slaSignals = (ticket: SlaView, now: number): SlaSignal[] => {
  const targets: [SlaMetric, string | null, string | null][] = [
    ['first_response', ticket.sla_first_response_due_at, ticket.created_at],
    ['next_response', ticket.sla_next_response_due_at, ticket.sla_next_response_set_at ?? ticket.created_at],
    ['resolution', ticket.sla_resolution_due_at, ticket.created_at],
  ];
  const out: SlaSignal[] = [];
  for (const [metric, dueAt, windowStart] of targets) {
    if (dueAt === null || windowStart === null || met(metric, ticket, windowStart)) continue;
    const due = Date.parse(dueAt);
    const start = Date.parse(windowStart);
    const kind: SlaKind | null = now >= due ? 'breached' : now >= start + AT_RISK_SHARE * (due - start) ? 'at_risk' : null;
    if (kind === null || ticket.sla_signals[signalKey(kind, metric, dueAt)] || ticket.sla_signals[signalKey('breached', metric, dueAt)]) continue;
    out.push({ kind, metric, dueAt, windowStart });
  }
  return out;
};

export type TicketActivityCommand = { type: 'record_response'; message_id: string; at: string } | ({ type: 'signal_sla' } & SlaSignal);

/**
 * Decisions on a ticket beyond imports: replies and SLA signals. It shares the ticket's state
 * and `evolve`, so each signal is recorded once per ticket, metric and target, however often
 * the monitor (or a restarted one) asks.
 */
export const ticketActivityDecider: Decider<TicketActivityCommand, TicketEvent, TicketState> = {
  initialState: ticketDecider.initialState,
  evolve: ticketDecider.evolve,
  decide(command, state) {
    if (!state.exists) return fail('not_found', 'ticket not found');
    const id = state.id;
    if (command.type === 'record_response') {
      const events: TicketEvent[] = [];
      if (state.first_response_at === null) events.push({ type: 'ticket.updated', data: { id, changes: { first_response_at: command.at } } });
      if (state.last_response_at === null || command.at > state.last_response_at) {
        events.push({ type: 'ticket.response_recorded', data: { id, message_id: command.message_id, responded_at: command.at } });
      }
      return E.right(events);
    }
    const { kind, metric, dueAt, windowStart } = command;
    if (state.sla_signals[signalKey(kind, metric, dueAt)] || state.sla_signals[signalKey('breached', metric, dueAt)]) return E.right([]);
    if (met(metric, state, windowStart)) return E.right([]);
    return E.right([{ type: kind === 'at_risk' ? 'sla.at_risk' : 'sla.breached', data: { id, sla_metric: metric, sla_due_at: dueAt } }]);
  },
};
