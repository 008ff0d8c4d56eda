import {
  AckPolicy,
  ConsumerInfo,
  DeliverPolicy,
  DiscardPolicy,
  ErrorCode,
  JetStreamClient,
  JetStreamManager,
  NatsConnection,
  NatsError,
  RetentionPolicy,
  StorageType,
  StreamConfig,
  connect,
  nanos,
} from 'nats';
import { createHash } from 'node:crypto';
import { InFlight } from '@support/kernel';
import { apiErrorCode, mapped, unavailableIfUnreached } from './nats-errors';
import { decode, encode, NatsSubscription } from './nats-subscription';
import { Bus, BusMessage, BusSubscription, ConsumerOptions, subjectMatches } from './port';

export interface NatsBusOptions {
  /** JetStream stream holding the bus's messages. Default `SUPPORT`. */
  stream?: string;
  /** The port-level subjects the stream carries. Default `['support.>']`. */
  subjects?: string[];
  /** Publishes with an id already seen within this window are dropped. Default 2 minutes. */
  duplicateWindowMs?: number;
  /** Messages older than this are removed from the stream. Default 7 days. */
  maxAgeMs?: number;
  /**
   * Namespace on the wire: port subject `a.b` travels as `<prefix>.a.b` and the stream's
   * subjects are prefixed too, so several environments (or test runs) can share one server.
   * Messages handed to consumers carry the port subject, without the prefix. Default none.
   */
  subjectPrefix?: string;
  /** Connection name shown by the server's monitoring. */
  name?: string;
}

const DEFAULT_ACK_WAIT_MS = 30_000;
// A present instance answers within milliseconds; a slower answer tells nothing (not "gone").
const PRESENCE_TIMEOUT_MS = 1000;
/** JetStream API error codes (`err_code`). */
const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;

/**
 * The bus on NATS JetStream. One stream (file storage, limits retention with a max age, a
 * duplicate window for dedup by `Nats-Msg-Id`) carries all subjects; each durable is a durable
 * pull consumer (explicit acks, unlimited deliveries). A new durable starts from the oldest
 * message still in the stream (deliver-all), unlike the in-process bus, which keeps no history:
 * a publisher that runs before its consumer was ever created (the relay before the dispatcher's
 * first start) loses nothing. Every consume() runs its own pull
 * loop on the durable, so calls sharing a durable name compete for its messages; each loop
 * handles one message at a time (scale out with more consumers).
 */
export class NatsBus implements Bus {
  readonly shared = true;
  readonly durable = true;
  private readonly subscriptions = new Set<NatsSubscription>();
  /** Publishes and consume() calls under way: close() lets them finish before it drains the connection. */
  private readonly ops = new InFlight('bus');
  private closed = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly stream: string,
    /** The stream's subjects on the wire (prefixed), as of connect(). */
    readonly subjects: readonly string[],
    private readonly prefix: string,
  ) {}

  static async connect(url: string, options: NatsBusOptions = {}): Promise<NatsBus> {
    const stream = options.stream ?? 'SUPPORT';
    const prefix = options.subjectPrefix ? `${options.subjectPrefix}.` : '';
    const subjects = (options.subjects ?? ['support.>']).map((s) => prefix + s);
    const nc = await mapped(() => connect({ servers: url, name: options.name ?? 'support-bus', maxReconnectAttempts: -1 }));
    try {
      const jsm = await nc.jetstreamManager();
      const streamSubjects = await ensureStream(jsm, {
        name: stream,
        subjects,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        duplicate_window: nanos(options.duplicateWindowMs ?? 120_000),
        max_age: nanos(options.maxAgeMs ?? 7 * 24 * 3600_000),
      });
      return new NatsBus(nc, nc.jetstream(), jsm, stream, streamSubjects, prefix);
    } catch (e) {
      await nc.close().catch(() => undefined);
      throw unavailableIfUnreached(e);
    }
  }

  private wire(subject: string): string {
    return this.prefix + subject;
  }

  private readonly unprefix = (subject: string): string => (this.prefix && subject.startsWith(this.prefix) ? subject.slice(this.prefix.length) : subject);

  private covers(wireSubject: string): boolean {
    return this.subjects.some((s) => subjectMatches(s, wireSubject));
  }

  publish(subject: string, id: string, data: unknown): Promise<void> {
    return this.ops.run(() => mapped(() => this.publishNow(subject, id, data)));
  }

  private async publishNow(subject: string, id: string, data: unknown): Promise<void> {
    const wire = this.wire(subject);
    if (!this.covers(wire)) {
      throw new Error(`bus: subject ${subject} is outside the subjects of stream ${this.stream} (${this.subjects.join(', ')})`);
    }
    // A duplicate within the window is acknowledged with `duplicate: true` and not stored.
    await this.js.publish(wire, encode(data), { msgID: id });
  }

  consume(options: ConsumerOptions, handler: (message: BusMessage) => Promise<void>): Promise<BusSubscription> {
    if (this.closed) return Promise.reject(new Error('bus: closed'));
    return this.ops.run(() => mapped(() => this.consumeNow(options, handler)));
  }

  private async consumeNow(options: ConsumerOptions, handler: (message: BusMessage) => Promise<void>): Promise<BusSubscription> {
    if (!this.subjects.some((s) => filterWithin(this.wire(options.subject), s))) {
      throw new Error(`bus: filter ${options.subject} is outside the subjects of stream ${this.stream} (${this.subjects.join(', ')})`);
    }
    await this.ensureConsumer(options.durable, this.wire(options.subject), options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS);
    const consumer = await this.js.consumers.get(this.stream, options.durable);
    const subscription: NatsSubscription = new NatsSubscription(
      consumer,
      handler,
      this.unprefix,
      () => this.nc.isClosed(),
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /**
   * Creates the durable, or reuses it; a durable whose filter or ack wait differs from the
   * options is updated (the last consume() call's options win).
   */
  private async ensureConsumer(durable: string, filter: string, ackWaitMs: number): Promise<ConsumerInfo> {
    const wanted = { filter_subject: filter, ack_wait: nanos(ackWaitMs) };
    let info: ConsumerInfo | undefined;
    try {
      info = await this.jsm.consumers.info(this.stream, durable);
    } catch (e) {
      if (apiErrorCode(e) !== CONSUMER_NOT_FOUND) throw e;
    }
    if (!info) {
      try {
        return await this.jsm.consumers.add(this.stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          max_deliver: -1,
          ...wanted,
        });
      } catch (e) {
        // Another process (or a concurrent consume()) created it first with other options.
        info = await this.jsm.consumers.info(this.stream, durable).catch(() => {
          throw e;
        });
      }
    }
    if (info.config.filter_subject !== wanted.filter_subject || info.config.ack_wait !== wanted.ack_wait) {
      info = await this.jsm.consumers.update(this.stream, durable, wanted);
    }
    return info;
  }

  /** Signals travel as plain NATS messages, outside the stream (a subject it covers would be stored). */
  private signalSubject(subject: string): string {
    const wire = this.wire(subject);
    if (this.covers(wire)) throw new Error(`bus: signal subject ${subject} lies inside the subjects of stream ${this.stream}; signals are not stored`);
    return wire;
  }

  async signal(subject: string, data: unknown): Promise<void> {
    if (this.closed || this.nc.isClosed()) return;
    this.nc.publish(this.signalSubject(subject), encode(data));
  }

  async listen(subject: string, handler: (data: unknown) => void): Promise<BusSubscription> {
    if (this.closed) throw new Error('bus: closed');
    const sub = this.nc.subscribe(this.signalSubject(subject), {
      callback: (err, m) => {
        if (err) return;
        try {
          handler(decode(m.data));
        } catch {
          // Not JSON, or the listener failed: a signal is a hint, dropping it is safe.
        }
      },
    });
    // Once the server has seen the subscription, signals sent after this call reach it.
    await this.nc.flush();
    return { close: async () => void (sub.isClosed() ? undefined : sub.unsubscribe()) };
  }

  /** Presence subjects: plain NATS request-reply, outside the stream; the id hashed into one token. */
  private presenceSubject(instance: string): string {
    return this.signalSubject(`presence.${createHash('sha256').update(instance).digest('hex').slice(0, 32)}`);
  }

  async announce(instance: string): Promise<BusSubscription> {
    if (this.closed) throw new Error('bus: closed');
    const sub = this.nc.subscribe(this.presenceSubject(instance), { callback: (err, m) => void (err ? undefined : m.respond()) });
    await this.nc.flush();
    return { close: async () => void (sub.isClosed() ? undefined : sub.unsubscribe()) };
  }

  /** The server answers "no responders" at once when no connection subscribes to the subject. */
  async gone(instance: string): Promise<boolean> {
    if (this.closed || this.nc.isClosed()) return false;
    try {
      await this.nc.request(this.presenceSubject(instance), undefined, { timeout: PRESENCE_TIMEOUT_MS });
      return false;
    } catch (e) {
      return e instanceof NatsError && e.code === (ErrorCode.NoResponders as string);
    }
  }

  /** A round trip to the server (while reconnecting, the client buffers and this waits). */
  async ping(): Promise<void> {
    if (this.closed || this.nc.isClosed()) throw new Error('bus: closed');
    await mapped(() => this.nc.flush());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Handlers finish first (they may still publish), then the publishes under way, then a
    // consume() that was under way has its subscription closed too.
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.ops.drain();
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

/** Whether every subject matching `filter` also matches the stream subject `s`. */
const filterWithin = (filter: string, s: string): boolean => {
  const f = filter.split('.');
  const t = s.split('.');
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '>') return f.length > i;
    if (i >= f.length) return false;
    if (t[i] === '*') {
      if (f[i] === '>') return false;
      continue;
    }
    if (f[i] !== t[i]) return false;
  }
  return f.length === t.length;
};

/**
 * Creates the stream, or brings an existing one up to date: the configured subjects are added
 * to the ones it has unless one of them already covers them (none is removed: another
 * deployment may publish on it), and the duplicate window and max age are set. Storage and
 * retention of an existing stream are left as they are (JetStream cannot change them in place).
 */
const ensureStream = async (jsm: JetStreamManager, config: Partial<StreamConfig> & { name: string; subjects: string[] }): Promise<string[]> => {
  for (let attempt = 0; ; attempt++) {
    let existing: StreamConfig | undefined;
    try {
      existing = (await jsm.streams.info(config.name)).config;
    } catch (e) {
      if (apiErrorCode(e) !== STREAM_NOT_FOUND) throw e;
    }
    if (!existing) {
      try {
        await jsm.streams.add(config);
        return config.subjects;
      } catch (e) {
        if (attempt < 2) continue; // created concurrently by another process: update it instead
        throw e;
      }
    }
    const known = existing.subjects;
    const subjects = [...known, ...config.subjects.filter((s) => !known.some((k) => filterWithin(s, k)))];
    if (subjects.length === known.length && existing.duplicate_window === config.duplicate_window && existing.max_age === config.max_age) return subjects;
    await jsm.streams.update(config.name, { ...existing, subjects, duplicate_window: config.duplicate_window, max_age: config.max_age });
    return subjects;
  }
};
