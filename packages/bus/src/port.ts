export interface BusMessage {
  /** Publisher's id: a second publish with the same id is dropped (dedup). */
  readonly id: string;
  readonly subject: string;
  readonly data: unknown;
  /** 1 on first delivery, then 2, 3… on redelivery. */
  readonly deliveryCount: number;
  ack(): Promise<void>;
  /** Redeliver later (after `delayMs`, default at once). */
  nak(delayMs?: number): Promise<void>;
  /** Never redeliver. */
  term(): Promise<void>;
}

export interface ConsumerOptions {
  /** Consumers sharing a durable name compete: each message goes to one of them. */
  durable: string;
  /** Subject filter; `*` matches one token, a final `>` one or more. */
  subject: string;
  /** Redeliver a message not acked within this time. */
  ackWaitMs?: number;
}

export interface BusSubscription {
  close(): Promise<void>;
}

export interface Bus {
  /** Whether messages and signals reach other processes (NATS), or stay in this one (in-process bus). */
  readonly shared: boolean;
  /**
   * Whether the bus keeps its messages for durables: a durable created now still gets what was
   * published before (NATS JetStream: the stream's history). The in-process bus keeps none: a
   * durable gets only what is published after it was first created, so a consumer that must
   * not miss events reads them from the event log instead (the embedded dispatcher does).
   */
  readonly durable: boolean;
  publish(subject: string, id: string, data: unknown): Promise<void>;
  consume(options: ConsumerOptions, handler: (message: BusMessage) => Promise<void>): Promise<BusSubscription>;
  /**
   * Signals: fire and forget, kept nowhere, never redelivered; every listener attached at the
   * time gets one. For hints that save a poll (a checkpoint moved), never for data that must
   * arrive. Their subjects must lie outside the durable messages' subjects.
   */
  signal(subject: string, data: unknown): Promise<void>;
  /** Attaches a listener for signals matching `subject`; resolved once signals sent after it reach it. */
  listen(subject: string, handler: (data: unknown) => void): Promise<BusSubscription>;
  /**
   * Presence, to tell a crashed process from a slow one: this process answers for `instance`
   * until the subscription closes or the process dies (NATS drops a dead connection's
   * subscriptions at once, so a SIGKILLed process is gone in milliseconds, not a lease TTL).
   */
  announce(instance: string): Promise<BusSubscription>;
  /**
   * True only when the bus knows that nobody answers for `instance` now; false when somebody
   * does, or when the bus cannot tell (the in-process bus, for another process's instance; a
   * NATS request that timed out). A false "gone" would cost two holders of a lease for a round,
   * so callers take it as one sign among others, never alone.
   */
  gone(instance: string): Promise<boolean>;
  /** Resolves when the bus answers (readiness); rejects when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** NATS-style subject matching: tokens split on dots. */
export const subjectMatches = (filter: string, subject: string): boolean => {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length || (f[i] !== '*' && f[i] !== s[i])) return false;
  }
  return f.length === s.length;
};
