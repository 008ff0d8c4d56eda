import { type Application, inSpan, traceparentOf } from '@support/application';
import { deliveryId, webhookEventId, webhookRecordsOf } from '@support/webhook-endpoints';
import type { RecordedEvent } from '@support/eventstore';
import { EnabledEndpoints } from './enabled-endpoints';
import { PAYLOADS, Payloads } from './payloads';

/**
 * Spec 6.1: an event is recorded in the /events log, with a delivery per endpoint, when at
 * least one enabled endpoint of its workspace subscribes to its type; otherwise it is not
 * stored. Ids are derived from the domain event, so accepting it twice records nothing twice.
 */
export class Intake {
  private readonly endpoints;
  private readonly records;

  /** `inLogOrder`: every event is accepted, one at a time, in the log's order (see EnabledEndpoints). */
  constructor(
    app: Application,
    private readonly payloads: Payloads,
    inLogOrder = false,
  ) {
    this.endpoints = new EnabledEndpoints(app, inLogOrder);
    this.records = webhookRecordsOf(app);
  }

  async accept(event: RecordedEvent): Promise<void> {
    this.endpoints.seen(event);
    const workspaceId = event.metadata.workspace_id;
    if (!workspaceId || !PAYLOADS[event.type]) return;
    const at = event.metadata.occurred_at;
    const items = await this.endpoints.of(workspaceId);
    // Endpoints registered after the event do not receive it, even when this runs late.
    const endpoints = items.filter((e) => (e.enabled_events.includes('*') || e.enabled_events.includes(event.type)) && e.created_at <= at);
    if (endpoints.length === 0) return;
    // A span continuing the trace of the request that appended the event; its deliveries keep it for their attempts.
    await inSpan(
      `intake ${event.type}`,
      { parent: event.metadata.traceparent, kind: 'consumer', attributes: { 'support.endpoints': endpoints.length } },
      async () => {
        const data = await this.payloads.build(event);
        if (!data) return;
        const eventId = webhookEventId(event.id, at);
        // Only the intake's own span (an event without a trace makes none): never a context this ran in by chance.
        const traceparent = event.metadata.traceparent ? traceparentOf() : undefined;
        await this.records.recordEvent({ id: eventId, workspace_id: workspaceId, type: event.type, data, created_at: at });
        for (const endpoint of endpoints) {
          await this.records.enqueue({
            id: deliveryId(eventId, endpoint.id, at),
            workspace_id: workspaceId,
            endpoint_id: endpoint.id,
            event_id: eventId,
            event_type: event.type,
            ...(traceparent ? { traceparent } : {}),
          });
        }
      },
    );
  }
}
