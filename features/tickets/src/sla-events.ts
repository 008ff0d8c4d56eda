import * as t from 'io-ts';
import { eventCodec } from '@support/domain';

export const SLA_METRICS = ['first_response', 'next_response', 'resolution'] as const;
export const SlaMetric = t.keyof({ first_response: null, next_response: null, resolution: null });
export type SlaMetric = t.TypeOf<typeof SlaMetric>;

const signal = t.type({ id: t.string, sla_metric: SlaMetric, sla_due_at: t.string });
/** Spec 6.1: a ticket approaches an SLA target… */
export const SlaAtRisk = eventCodec('sla.at_risk', signal);
/** …or misses it. */
export const SlaBreached = eventCodec('sla.breached', signal);

/** An agent or AI reply in the ticket's source conversation (what response targets measure). */
export const TicketResponseRecorded = eventCodec('ticket.response_recorded', t.type({ id: t.string, message_id: t.string, responded_at: t.string }));

export type SlaKind = 'at_risk' | 'breached';

/** How a recorded signal is remembered: one per kind, metric and target time. */
export const signalKey = (kind: SlaKind, metric: SlaMetric, dueAt: string) => `${kind}:${metric}:${dueAt}`;
