import { LogConsumer, type Application, type Logger } from '@support/application';
import type { RecordedEvent } from '@support/eventstore';
import { ticketActivityOf, ticketsOf } from '@support/tickets';

const RESPONDERS = new Set(['agent', 'ai']);

/**
 * A ticket's responses are the agent and AI messages of its source conversation (operator
 * interface): this reactor records them on the ticket, from its own checkpoint, idempotently
 * (the ticket keeps only the first response and the latest reply).
 */
export class TicketResponses extends LogConsumer {
  constructor(
    private readonly app: Application,
    log: Logger,
  ) {
    super(app.engines.events, app.engines.reads, 'ticket-responses', (event) => this.record(event), log);
  }

  private async record(event: RecordedEvent): Promise<void> {
    if (event.type !== 'message.created') return;
    const message = event.data as { id: string; conversation_id: string; workspace_id: string; sender_type: string };
    if (!RESPONDERS.has(message.sender_type)) return;
    const { items } = await ticketsOf(this.app).find(message.workspace_id, { where: { source_conversation_id: message.conversation_id } });
    for (const ticket of items) await ticketActivityOf(this.app).recordResponse(message.workspace_id, ticket.id, message.id, event.metadata.occurred_at);
  }
}
