import { Aggregate, type Application, CommandContext, Deps, execute, perApplication } from '@support/application';
import { TicketState } from './decider';
import { TicketEvent } from './events';
import { ticketStream } from './import';
import { SlaSignal, TicketActivityCommand, ticketActivityDecider } from './sla';

const ticket: Aggregate<TicketActivityCommand, TicketEvent, TicketState> = { decider: ticketActivityDecider, codec: TicketEvent };
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

/** The application's ticket activity (the SLA monitor's and the response recorder's). */
export const ticketActivityOf = perApplication((app: Application) => new TicketActivity(app.deps));
