import { formatPosition, RecordedEvent } from '@support/eventstore';
import { SetAsideLog, SetAsideRecord } from './set-aside';
import type { Logger } from '@support/kernel';

/** Set aside after this many failures of a batch in a row with the same error (PROJECTION_SET_ASIDE_AFTER). */
export const SET_ASIDE_AFTER = 5;

/**
 * An error's message, as recorded: a U+0000 in it (a driver quoting the key it refused) is
 * written `\u0000`, since a read store on PostgreSQL cannot store the character itself and the
 * set-aside record would fail as its event did.
 */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replaceAll('\0', '\\u0000');

/**
 * Failures of the same batch in a row with the same message. A different message starts the
 * count again, and so does a success: a store that comes and goes never reaches the limit
 * through its varied errors, and an error that heals is forgotten.
 */
export class FailureStreak {
  private count = 0;
  private message: string | null = null;

  /** `limit` 0: never (retry for ever, as before set-aside existed). */
  constructor(private readonly limit: number) {}

  /** Counts a failure; true once `limit` failures in a row had this message. */
  failed(err: unknown): boolean {
    const message = errorText(err);
    this.count = message === this.message ? this.count + 1 : 1;
    this.message = message;
    return this.limit > 0 && this.count >= this.limit;
  }

  reset(): void {
    this.count = 0;
    this.message = null;
  }
}

/** What the isolation needs of the projector. */
export interface Isolation {
  /** The read models that apply `event` and have not set it aside. */
  readModelsOf(event: RecordedEvent): string[];
  /** Applies `event` to one read model alone, written at once (without the checkpoint). */
  applyAlone(event: RecordedEvent, readModel: string): Promise<void>;
  /** A write the store accepts whenever it is up (the checkpoint saved where it already is); throws when it is down. */
  probe(): Promise<void>;
}

const attempt = async (op: () => Promise<void>): Promise<string | null> => {
  try {
    await op();
    return null;
  } catch (err) {
    return errorText(err);
  }
};

/**
 * Applies a batch that keeps failing event by event and read model by read model, and sets
 * aside what is the event's fault rather than the store's. The rule: an event is set aside for
 * one read model when, applied alone to it, it fails, the store then accepts a write (the
 * probe), the event fails alone again, and the store accepts a write again (the probe, then
 * the set-aside record itself). A store that is down fails the probe: this throws, nothing is
 * set aside, and the batch is retried with backoff as before. Everything else in the batch is
 * applied, in log order. Returns the records set aside.
 */
export const isolateBatch = async (
  batch: readonly RecordedEvent[],
  isolation: Isolation,
  setAside: SetAsideLog,
  log: Pick<Logger, 'error'>,
  checkpoint: string,
  /** The batch's failures before the isolation, counted in each record's `attempts`. */
  batchFailures: number,
  now: () => string = () => new Date().toISOString(),
): Promise<SetAsideRecord[]> => {
  const found: SetAsideRecord[] = [];
  for (const event of batch) {
    for (const readModel of isolation.readModelsOf(event)) {
      if ((await attempt(() => isolation.applyAlone(event, readModel))) === null) continue;
      await isolation.probe();
      const error = await attempt(() => isolation.applyAlone(event, readModel));
      if (error === null) continue;
      await isolation.probe();
      const record = await setAside.record(readModel, event, error, now(), batchFailures + 2);
      // Once per event and read model: the projector skips it from now on.
      log.error('event set aside: its read model cannot apply it; the projector goes on past it', {
        consumer: checkpoint,
        read_model: readModel,
        position: formatPosition(event.position),
        stream: event.stream,
        revision: event.revision,
        type: event.type,
        event_id: event.id,
        error,
        id: record.id,
      });
      found.push(record);
    }
  }
  return found;
};
