import { type Application, type Logger } from '@support/application';
import { workspacesOf } from '@support/workspaces';
import { slaSignals, SlaView, ticketActivityOf, ticketsOf } from '@support/tickets';

const OPEN_STATUSES = ['open', 'pending', 'on_hold'] as const;

/**
 * Watches the SLA targets of open tickets in workspaces with SLA tracking on, and records
 * `sla.at_risk` / `sla.breached` on the ticket. The ticket's own stream remembers what was
 * sent, so a restart neither repeats a signal nor misses one (it re-scans everything open).
 * Time comes from the application's clock.
 */
export class SlaMonitor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly app: Application,
    private readonly log: Logger,
    private readonly intervalMs = 1000,
  ) {}

  async start(): Promise<void> {
    const tick = () => {
      this.running = this.scan()
        .catch((err) => this.log.error('SLA scan failed; next tick retries', { error: String(err) }))
        .finally(() => {
          if (this.timer !== null) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass over every open ticket of every tracked workspace. */
  async scan(): Promise<number> {
    const now = this.app.clock.now().getTime();
    let recorded = 0;
    const { items: workspaces } = await workspacesOf(this.app).reads.find({ where: { sla_tracking: true } });
    for (const workspace of workspaces) {
      for (const status of OPEN_STATUSES) {
        const { items } = await ticketsOf(this.app).find(workspace.id, { where: { status } });
        for (const ticket of items) {
          for (const signal of slaSignals(ticket as unknown as SlaView, now)) {
            const outcome = await ticketActivityOf(this.app).signal(workspace.id, ticket.id, signal);
            if (outcome.events.length) {
              recorded += 1;
              this.log.info(`sla ${signal.kind}`, { ticket_id: ticket.id, metric: signal.metric, due_at: signal.dueAt });
            }
          }
        }
      }
    }
    return recorded;
  }
}
