import { SlaSignal, TicketActivityCommand, ticketActivityDecider, TicketEvent, TicketState } from '@support/domain';
import { Aggregate, CommandContext, Deps, execute } from './execute';

const ticket: Aggregate<TicketActivityCommand, TicketEvent, TicketState> = { decider: ticketActivityDecider, codec: TicketEvent };
const ticketStream = (id: string) => `ticket-${id}`;
const SYSTEM: CommandContext = { workspaceId: null, actor: 'system', requestId: null };

/** What happens to tickets besides imports: replies in their conversation, and SLA signals. */
export class TicketActivity {
  constructor(private readonly deps: Deps) {}

  async recordResponse(workspaceId: string, ticketId: string, messageId: string, at: string) {
    return execute(this.deps, { ...SYSTEM, workspaceId }, ticket, ticketStream(ticketId), { type: 'record_response', message_id: messageId, at });
  }

  async signal(workspaceId: string, ticketId: string, signal: SlaSignal) {
    return execute(this.deps, { ...SYSTEM, workspaceId }, ticket, ticketStream(ticketId), { type: 'signal_sla', ...signal });
  }
}
