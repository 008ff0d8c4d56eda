import type { Application } from '@support/application';
import { comparePositions, type Position, type RecordedEvent } from '@support/eventstore';
import { changesReceivers, endpointsOf, type WebhookEndpointDocument } from '@support/webhook-endpoints';

/** Workspaces whose endpoints are remembered at once (a workspace has 16 at most). */
const REMEMBERED = 10_000;

/**
 * A workspace's enabled endpoints, as the intake needs them for every event it takes in.
 * Looking them up was a read-store query per event, in a workspace with no endpoints too.
 *
 * With `remember` (an intake that sees every event in log order, as the embedded default's
 * does), the answer is kept until an endpoint event of the workspace is seen, and kept at all
 * only when the read models had already passed every endpoint event seen so far: otherwise the
 * read could predate a change the intake has gone past, and the next events would miss an
 * endpoint made before them. An intake fed out of order (competing bus consumers) looks up
 * every time.
 */
export class EnabledEndpoints {
  private readonly remembered = new Map<string, WebhookEndpointDocument[]>();
  /**
   * The last endpoint event seen that may change who receives events; at first, the first
   * event seen (a change from before a restart is behind it, and the read models may not have
   * applied it yet).
   */
  private changedAt: Position | null = null;

  constructor(
    private readonly app: Application,
    private readonly remember: boolean,
  ) {}

  /** Takes note of an event in log order, before the events after it are looked up for. */
  seen(event: RecordedEvent): void {
    if (!this.remember) return;
    if (this.changedAt === null) this.changedAt = event.position;
    if (!changesReceivers(event.type)) return;
    const workspaceId = event.metadata.workspace_id;
    // An endpoint event that names no workspace could be any one's.
    if (workspaceId) this.remembered.delete(workspaceId);
    else this.remembered.clear();
    if (comparePositions(event.position, this.changedAt) > 0) this.changedAt = event.position;
  }

  async of(workspaceId: string): Promise<WebhookEndpointDocument[]> {
    const known = this.remembered.get(workspaceId);
    if (known) return known;
    // Checked before the read: whatever the read models held then, the read sees at least that.
    const changedAt = this.changedAt;
    const current = changedAt !== null && (await this.app.projectedPast(changedAt, 0));
    const { items } = await endpointsOf(this.app).scoped.find(workspaceId, { where: { status: 'enabled' } });
    if (current && this.changedAt === changedAt) {
      if (this.remembered.size >= REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
      this.remembered.set(workspaceId, items);
    }
    return items;
  }
}
