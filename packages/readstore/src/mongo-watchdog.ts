import { MongoClient, MongoServerSelectionError } from 'mongodb';
import type { Logger } from '@support/kernel';

/** How long a fresh client may take to reach the server, when the store's own client cannot. */
const PROBE_MS = 2_000;
/** At most one reconnection in this long: a server that only flaps is left to the driver. */
const RECONNECT_EVERY_MS = 30_000;

/**
 * Reconnects a driver client that stays cut off from a server a fresh client reaches. The
 * mongodb driver (6.22, and 7.9 reads the same) can wedge for good: when the server closes every
 * connection at once (FerretDB stopping), a heartbeat asked for in the tick between the
 * monitor's socket being destroyed and its `close` event writes `hello` to that socket and waits
 * for a `drain` that never comes. The server then stays Unknown and every operation fails server
 * selection, even once the server is back. MongoDB 4.4+ sends a topology version and the driver
 * restarts such a heartbeat; FerretDB 1.24 sends none, so nothing does. In the scale-out trial,
 * 2 of 9 processes stayed so for 16 minutes, until restarted.
 *
 * So after an operation failed server selection (it waited SERVER_SELECTION_MS), a new client
 * pings the server; if it answers within PROBE_MS, the store's client is closed and connected
 * again. Its databases' and collections' handles stay valid; operations under way fail, as they
 * were failing anyway, and are answered 503.
 */
export class ClientWatchdog {
  private checking: Promise<void> | null = null;
  private lastReconnect = -Infinity;
  private stopped = false;

  constructor(
    private readonly client: MongoClient,
    private readonly url: string,
    private readonly log: Pick<Logger, 'warn'> | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Told of every failed operation. */
  failed(err: unknown): void {
    if (this.stopped || this.checking || !(err instanceof MongoServerSelectionError)) return;
    if (this.now() - this.lastReconnect < RECONNECT_EVERY_MS) return;
    this.checking = this.check().finally(() => (this.checking = null));
  }

  private async check(): Promise<void> {
    const probe = new MongoClient(this.url, { serverSelectionTimeoutMS: PROBE_MS, connectTimeoutMS: PROBE_MS });
    try {
      await probe.db('admin').command({ ping: 1 });
    } catch {
      return; // the server is down for a new client too: the driver's own reconnection is what is needed
    } finally {
      await probe.close(true).catch(() => undefined);
    }
    if (this.stopped) return;
    this.lastReconnect = this.now();
    this.log?.warn('read store client cut off from a server that answers a new client; reconnecting it', {});
    await this.client.close(true).catch(() => undefined);
    if (!this.stopped) await this.client.connect().catch(() => undefined);
  }

  /** No more reconnections; waits for one under way (the store closes its client after). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.checking;
  }
}
