import { Aggregate, CommandContext, Deps, execute } from '@support/application';
import { TicketNumberCommand, ticketNumberDecider, TicketNumberState } from './number-decider';
import { TicketNumberEvent } from './number-events';

const sequence: Aggregate<TicketNumberCommand, TicketNumberEvent, TicketNumberState> = { decider: ticketNumberDecider, codec: TicketNumberEvent };
export const ticketNumberStream = (workspaceId: string) => `ticket_number-${workspaceId}`;

export type NumberRequest = TicketNumberCommand['tickets'][number];

/**
 * Ticket numbers per workspace, from a sequence stream appended with its expected revision:
 * concurrent writers cannot get the same number (`execute` decides again after a conflict).
 */
export class TicketNumbers {
  constructor(private readonly deps: Deps) {}

  /** The numbers handed out, by ticket id (tickets that keep a lower number of their own get none). */
  async allocate(ctx: CommandContext & { workspaceId: string }, tickets: readonly NumberRequest[]): Promise<Map<string, number>> {
    if (tickets.length === 0) return new Map();
    const { events } = await execute(this.deps, ctx, sequence, ticketNumberStream(ctx.workspaceId), { type: 'allocate', tickets });
    return new Map(events.map((e) => [e.data.ticket_id, e.data.number]));
  }
}
