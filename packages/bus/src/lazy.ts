import { Bus, BusMessage, BusSubscription, ConsumerOptions } from './port';

/**
 * A bus that opens its adapter on first use and forwards to it, so that a synchronous
 * composition root can hold an adapter whose connection is asynchronous. A failed open is
 * not cached: the next call tries again.
 */
export class LazyBus implements Bus {
  private opening: Promise<Bus> | undefined;
  private closed = false;

  constructor(
    private readonly open: () => Promise<Bus>,
    /** What the adapter `open` gives will say (known before it is opened). */
    readonly shared: boolean,
    readonly durable: boolean,
  ) {}

  private bus(): Promise<Bus> {
    if (this.closed) return Promise.reject(new Error('bus: closed'));
    if (!this.opening) {
      const opening = this.open();
      this.opening = opening;
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.opening;
  }

  async publish(subject: string, id: string, data: unknown): Promise<void> {
    await (await this.bus()).publish(subject, id, data);
  }

  async consume(options: ConsumerOptions, handler: (message: BusMessage) => Promise<void>): Promise<BusSubscription> {
    return (await this.bus()).consume(options, handler);
  }

  async signal(subject: string, data: unknown): Promise<void> {
    await (await this.bus()).signal(subject, data);
  }

  async listen(subject: string, handler: (data: unknown) => void): Promise<BusSubscription> {
    return (await this.bus()).listen(subject, handler);
  }

  async announce(instance: string): Promise<BusSubscription> {
    return (await this.bus()).announce(instance);
  }

  async gone(instance: string): Promise<boolean> {
    return (await this.bus()).gone(instance);
  }

  async ping(): Promise<void> {
    await (await this.bus()).ping();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const opening = this.opening;
    this.opening = undefined;
    if (!opening) return;
    let bus: Bus;
    try {
      bus = await opening;
    } catch {
      return; // never opened: nothing to close
    }
    await bus.close();
  }
}
