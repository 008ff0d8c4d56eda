import { Consumer, ConsumerMessages, JsMsg } from 'nats';
import { BusMessage, BusSubscription } from './port';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const encode = (data: unknown): Uint8Array => (data === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(data)));
export const decode = (bytes: Uint8Array): unknown => (bytes.length === 0 ? undefined : JSON.parse(decoder.decode(bytes)));

const PULL_EXPIRES_MS = 5_000;
const RETRY_AFTER_ERROR_MS = 1_000;

/**
 * One consume() call: a loop that pulls one message from the shared durable, handles it, and
 * only then pulls the next. Nothing waits in this client's buffer while its ack wait runs, and
 * the durable's other subscribers get the messages this one is not ready for.
 */
export class NatsSubscription implements BusSubscription {
  private stopped = false;
  private fetching: ConsumerMessages | undefined;
  private wakeFromPause: (() => void) | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly consumer: Consumer,
    private readonly handler: (message: BusMessage) => Promise<void>,
    private readonly unprefix: (subject: string) => string,
    private readonly connectionClosed: () => boolean,
    private readonly onClosed: () => void,
  ) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.stopped && !this.connectionClosed()) {
      try {
        const batch = await this.consumer.fetch({ max_messages: 1, expires: PULL_EXPIRES_MS });
        this.fetching = batch;
        if (this.stopped) batch.stop();
        for await (const m of batch) {
          if (this.stopped)
            m.nak(); // arrived as close() was called: back to the durable at once
          else await this.handle(m);
        }
      } catch {
        // The pull failed: disconnected, heartbeats missed, consumer or stream gone. Try again
        // shortly (the client reconnects by itself) unless closing.
        if (!this.stopped)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, RETRY_AFTER_ERROR_MS);
            this.wakeFromPause = () => {
              clearTimeout(timer);
              resolve();
            };
          });
      } finally {
        this.fetching = undefined;
        this.wakeFromPause = undefined;
      }
    }
    this.onClosed();
  }

  private async handle(m: JsMsg): Promise<void> {
    let data: unknown;
    try {
      data = decode(m.data);
    } catch {
      m.term(); // not JSON: no redelivery can make it readable
      return;
    }
    let settled = false;
    const once = (fn: () => Promise<unknown> | void) => async (): Promise<void> => {
      if (settled) return;
      settled = true;
      await fn();
    };
    const message: BusMessage = {
      id: m.headers?.get('Nats-Msg-Id') ?? '',
      subject: this.unprefix(m.subject),
      data,
      deliveryCount: m.info.deliveryCount, // from the ack subject: 1 on first delivery
      ack: once(() => m.ackAck()),
      nak: (delayMs?: number) => once(() => m.nak(delayMs && delayMs > 0 ? delayMs : undefined))(),
      term: once(() => m.term()),
    };
    try {
      await this.handler(message);
    } catch {
      // Like the in-process bus: an unsettled message comes back after the ack wait.
    }
  }

  /** Stops pulling (a pending pull is withdrawn) and waits for the message being handled, if any. */
  async close(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.fetching?.stop();
      this.wakeFromPause?.();
    }
    await this.done;
  }
}
