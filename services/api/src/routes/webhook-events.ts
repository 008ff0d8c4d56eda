import { ConversationResource, MessageResource } from '@support/conversations';
import { CustomerResource } from '@support/customers';
import { EXAMPLE_ID, literal, oneOf, str, struct, timestamp, toSchema, type WebhookDef } from '@support/http';
import { SLA_METRICS, TicketResource } from '@support/tickets';
import type { WebhookEventType } from '@support/webhook-endpoints';

/** `sla.at_risk` and `sla.breached`: the ticket, and the target at risk or missed (spec 6.1). */
const ticket = toSchema(TicketResource);
const signal = {
  ...ticket,
  title: 'ticket_sla_signal',
  properties: { ...(ticket.properties as object), sla_metric: toSchema(oneOf(SLA_METRICS)), sla_due_at: toSchema(timestamp()) },
  required: [...(ticket.required as string[]), 'sla_metric', 'sla_due_at'],
  examples: [{ ...(ticket.examples as object[])[0], sla_metric: 'first_response', sla_due_at: '2026-11-02T13:14:27.301Z' }],
};
/** `ping`, from POST /webhook_endpoints/{id}/test: the endpoint being tested. */
const WebhookPing = struct(
  { object: literal('webhook_endpoint'), id: str(), url: str() },
  {},
  { title: 'webhook_ping', example: { object: 'webhook_endpoint', id: EXAMPLE_ID.webhookEndpoint, url: 'https://hooks.acme-bikes.example/support' } },
);

const conversation = toSchema(ConversationResource);
const customer = toSchema(CustomerResource);

/** Each webhook event type and its `data`, as the dispatcher builds it (services/dispatcher/src/payloads.ts). */
const DATA: Record<WebhookEventType, [summary: string, data: ReturnType<typeof toSchema>]> = {
  'conversation.created': ['The conversation, as created', conversation],
  'conversation.updated': ['The conversation right after the change', conversation],
  'conversation.closed': ['The conversation, closed', conversation],
  'message.created': ['The message, exactly as GET returns it', toSchema(MessageResource)],
  'customer.created': ['The customer, as created', customer],
  'customer.updated': ['The customer right after the change', customer],
  'lead.captured': ['The customer the AI agent recorded the lead on, right after the capture', customer],
  'ticket.created': ['The ticket, as created', ticket],
  'ticket.updated': ['The ticket right after the change', ticket],
  'ticket.resolved': ['The ticket, resolved', ticket],
  'sla.at_risk': ['The ticket, with the SLA metric and target about to be missed', signal],
  'sla.breached': ['The ticket, with the SLA metric and target missed', signal],
  'agent.escalated': ['The conversation right after the AI agent handed it to a human', conversation],
  ping: ['The endpoint being tested (POST /webhook_endpoints/{id}/test), sent even when it is disabled', toSchema(WebhookPing)],
};

export const WEBHOOK_EVENTS: readonly WebhookDef[] = Object.entries(DATA).map(([type, [summary, data]]) => ({ type, summary, data }));
