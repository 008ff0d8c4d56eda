import type { Application, Logger } from '@support/application';
import { formatPosition, parsePosition, RecordedEvent, START, Subscription } from '@support/eventstore';

const CHECKPOINT = 'ticket-responses';
const RESPONDERS = new Set(['agent', 'ai']);

/**
 * A ticket's responses are the agent and AI messages of its source conversation (operator
 * interface): this reactor records them on the ticket, from its own checkpoint, idempotently
 * (the ticket keeps only the first response and the latest reply).
 */
export class TicketResponses {
  private subscription: Subscription | null = null;

  constructor(private readonly app: Application, private readonly log: Logger) {}

  async start(): Promise<void> {
    const saved = await this.app.engines.reads.getCheckpoint(CHECKPOINT);
    this.subscription = this.app.engines.events.subscribe(saved ? parsePosition(saved) : START, async (batch) => {
      for (const event of batch) await this.handle(event);
      await this.app.engines.reads.setCheckpoint(CHECKPOINT, formatPosition(batch[batch.length - 1].position));
    }, (err) => this.log.error('ticket response reactor stopped; a restart resumes it', { error: String(err) }));
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
  }

  private async handle(event: RecordedEvent): Promise<void> {
    if (event.type !== 'message.created') return;
    const message = event.data as { id: string; conversation_id: string; workspace_id: string; sender_type: string };
    if (!RESPONDERS.has(message.sender_type)) return;
    const { items } = await this.app.reads.tickets.find(message.workspace_id, { where: { source_conversation_id: message.conversation_id } });
    for (const ticket of items) await this.app.ticketActivity.recordResponse(message.workspace_id, ticket.id, message.id, event.metadata.occurred_at);
  }
}
