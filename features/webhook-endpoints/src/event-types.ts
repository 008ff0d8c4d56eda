/** Spec 6.1: what an endpoint can subscribe to (`ping` goes only to the endpoint being tested). */
export const WEBHOOK_EVENT_TYPES = [
  'conversation.created',
  'conversation.updated',
  'conversation.closed',
  'message.created',
  'customer.created',
  'customer.updated',
  'lead.captured',
  'ticket.created',
  'ticket.updated',
  'ticket.resolved',
  'sla.at_risk',
  'sla.breached',
  'agent.escalated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'ping';

/** Spec 6.4 and 3: consecutive failed deliveries that disable an endpoint, and the early warning. */
export const DISABLE_AFTER_FAILURES = 15;
export const WARN_AFTER_FAILURES = 10;
