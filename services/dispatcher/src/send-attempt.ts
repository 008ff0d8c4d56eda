import { inSpan } from '@support/application';
import type { DeliveryDoc, WebhookEndpointDocument, WebhookEventDoc } from '@support/webhook-endpoints';
import { GuardOptions, SendExtra, SendResult, sendWebhook, signatureHeader } from '@support/webhooks';

const ACK_TIMEOUT_MS = 10_000;
const USER_AGENT = 'Service-Webhooks/1.0';

/**
 * One attempt of a delivery on the wire: the event's body, signed with the endpoint's secret at
 * `timestamp` (seconds), with the headers a receiver checks. It continues the trace its intake
 * recorded; the HTTP client span under it sends `traceparent` to the receiver.
 */
export const sendAttempt = (
  doc: DeliveryDoc,
  attempt: number,
  endpoint: WebhookEndpointDocument,
  event: WebhookEventDoc,
  timestamp: number,
  guard: GuardOptions,
  extra?: SendExtra,
): Promise<SendResult> => {
  const body = JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at, data: event.data });
  const attributes = { 'support.delivery_id': doc.id, 'support.attempt': attempt, 'support.endpoint_id': endpoint.id };
  return inSpan(`deliver ${doc.event_type}`, { parent: doc.traceparent, attributes }, () =>
    sendWebhook(
      {
        url: endpoint.url,
        body,
        timeoutMs: ACK_TIMEOUT_MS,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': USER_AGENT,
          'Service-Signature': signatureHeader(endpoint.secret, timestamp, body),
          'Service-Event-Id': event.id,
          'Service-Event-Type': event.type,
          'Service-Webhook-Id': doc.id,
        },
      },
      guard,
      extra,
    ),
  );
};
