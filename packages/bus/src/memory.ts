import { Bus, BusMessage, BusSubscription, ConsumerOptions, subjectMatches } from './port';

interface Envelope {
  id: string;
  subject: string;
  data: unknown;
  deliveries: number;
}
type Handler = (m: BusMessage) => Promise<void>;

const DEDUP_WINDOW_MS = 120_000;

/**
 * A durable consumer: messages wait in its queue whether or not a subscriber is attached,
 * and are handed round-robin to the attached subscribers.
 */
class Durable {
  readonly queue: Envelope[] = [];
  readonly handlers: Handler[] = [];
  private next = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly filter: string,
    readonly ackWaitMs: number,
  ) {}

  enqueue(e: Envelope): void {
    this.queue.push(e);
    this.pump();
  }

  pump(): void {
    while (this.handlers.length > 0 && this.queue.length > 0) {
      const e = this.queue.shift()!;
      const handler = this.handlers[this.next++ % this.handlers.length];
      this.deliver(e, handler);
    }
  }

  private later(ms: number, fn: () => void): () => void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  private deliver(e: Envelope, handler: Handler): void {
    e.deliveries += 1;
    let settled = false;
    const settle = (requeueAfter: number | null) => {
      if (settled) return;
      settled = true;
      cancelAckWait();
      if (requeueAfter === null) return;
      if (requeueAfter <= 0) this.enqueue(e);
      else this.later(requeueAfter, () => this.enqueue(e));
    };
    const cancelAckWait = this.later(this.ackWaitMs, () => settle(0));
    const message: BusMessage = {
      id: e.id,
      subject: e.subject,
      data: e.data,
      deliveryCount: e.deliveries,
      ack: async () => settle(null),
      nak: async (delayMs = 0) => settle(delayMs),
      term: async () => settle(null),
    };
    // A handler that throws without settling is redelivered after the ack wait, as on NATS.
    handler(message).catch(() => undefined);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/**
 * In-process bus for the embedded default. It keeps no history: a durable receives what is
 * published after it was first created. Restart safety comes from the publisher's checkpoint.
 */
export class MemoryBus implements Bus {
  readonly shared = false;
  readonly durable = false;
  private readonly durables = new Map<string, Durable>();
  private readonly seen = new Map<string, number>();
  private readonly listeners = new Set<{ filter: string; handler: (data: unknown) => void }>();
  /** Instances announced here, and how many announcements of each are open. */
  private readonly present = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async publish(subject: string, id: string, data: unknown): Promise<void> {
    const t = this.now();
    if ((this.seen.get(id) ?? -Infinity) > t - DEDUP_WINDOW_MS) return;
    this.seen.set(id, t);
    if (this.seen.size > 10_000) for (const [k, at] of this.seen) if (at <= t - DEDUP_WINDOW_MS) this.seen.delete(k);
    for (const d of this.durables.values()) {
      if (subjectMatches(d.filter, subject)) d.enqueue({ id, subject, data: structuredClone(data), deliveries: 0 });
    }
  }

  async consume(options: ConsumerOptions, handler: (message: BusMessage) => Promise<void>): Promise<BusSubscription> {
    let d = this.durables.get(options.durable);
    if (!d) {
      d = new Durable(options.subject, options.ackWaitMs ?? 30_000);
      this.durables.set(options.durable, d);
    }
    const durable = d;
    durable.handlers.push(handler);
    durable.pump();
    return {
      close: async () => {
        const i = durable.handlers.indexOf(handler);
        if (i >= 0) durable.handlers.splice(i, 1);
      },
    };
  }

  async signal(subject: string, data: unknown): Promise<void> {
    for (const l of [...this.listeners]) {
      if (!subjectMatches(l.filter, subject)) continue;
      try {
        l.handler(structuredClone(data));
      } catch {
        // A listener's failure is its own: a signal is a hint, not a delivery.
      }
    }
  }

  async listen(subject: string, handler: (data: unknown) => void): Promise<BusSubscription> {
    const listener = { filter: subject, handler };
    this.listeners.add(listener);
    return { close: async () => void this.listeners.delete(listener) };
  }

  async announce(instance: string): Promise<BusSubscription> {
    this.present.set(instance, (this.present.get(instance) ?? 0) + 1);
    let open = true;
    return {
      close: async () => {
        if (open) this.present.set(instance, this.present.get(instance)! - 1);
        open = false;
      },
    };
  }

  /** Gone when it was announced here and no announcement is open; another process's: cannot tell. */
  async gone(instance: string): Promise<boolean> {
    return this.present.get(instance) === 0;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.listeners.clear();
    for (const instance of this.present.keys()) this.present.set(instance, 0);
    for (const d of this.durables.values()) d.stop();
    this.durables.clear();
  }
}
