import { comparePositions, formatPosition, parsePosition, RecordedEvent } from '@support/eventstore';
import type { Collection, Doc, ReadStore } from '@support/readstore';

/** Where events a read model could not apply are recorded, in the read store beside the read models. */
export const SET_ASIDE = { name: 'projection_set_aside', indexes: [['status']] } as const;

/**
 * An event one read model could not apply, set aside so the projector goes on past it.
 * `status`: `set_aside` until an operator acts; `skipped` once acknowledged (kept as the audit
 * trail, and still skipped by the projectors and rebuilds). A successful retry removes it.
 */
export interface SetAsideRecord extends Doc {
  /** `<read model>:<position>`. */
  id: string;
  read_model: string;
  position: string;
  stream: string;
  revision: number;
  event_type: string;
  event_id: string;
  error: string;
  first_failed_at: string;
  last_failed_at: string;
  attempts: number;
  status: 'set_aside' | 'skipped';
  skipped_at: string | null;
}

export const setAsideId = (readModel: string, position: string): string => `${readModel}:${position}`;

/** The set-aside records of the read store: what the projectors skip, and what the admin CLI lists, retries and skips. */
export class SetAsideLog {
  private readonly records: Collection<SetAsideRecord>;

  constructor(store: ReadStore) {
    this.records = store.collection<SetAsideRecord>(SET_ASIDE);
  }

  /** Every record (both statuses), oldest position first; only those of `readModels` when given. */
  async list(readModels?: readonly string[]): Promise<SetAsideRecord[]> {
    const { items } = await this.records.find({});
    const wanted = readModels ? new Set(readModels) : null;
    return items.filter((r) => !wanted || wanted.has(r.read_model)).sort((a, b) => comparePositionText(a.position, b.position) || a.id.localeCompare(b.id));
  }

  get(id: string): Promise<SetAsideRecord | null> {
    return this.records.get(id);
  }

  /** Records (or, when already there, counts again) a failure of `event` in `readModel`. */
  async record(readModel: string, event: RecordedEvent, error: string, at: string, attempts: number): Promise<SetAsideRecord> {
    const position = formatPosition(event.position);
    const id = setAsideId(readModel, position);
    const before = await this.records.get(id);
    const record: SetAsideRecord = {
      id,
      read_model: readModel,
      position,
      stream: event.stream,
      revision: event.revision,
      event_type: event.type,
      event_id: event.id,
      // Stored text never holds U+0000 (a driver may quote a refused key in its message).
      error: error.replaceAll('\0', '\\u0000'),
      first_failed_at: before?.first_failed_at ?? at,
      last_failed_at: at,
      attempts: (before?.attempts ?? 0) + attempts,
      status: before?.status ?? 'set_aside',
      skipped_at: before?.skipped_at ?? null,
    };
    await this.records.put(record);
    return record;
  }

  /** An operator's acknowledgement: the event stays unapplied, the record stays as the audit trail. */
  async skip(id: string, at: string): Promise<SetAsideRecord | null> {
    const ok = await this.records.update(id, { status: 'skipped', skipped_at: at }, { status: 'set_aside' });
    return ok ? this.records.get(id) : null;
  }

  /** After a successful retry: the read model has the event now. */
  remove(id: string): Promise<boolean> {
    return this.records.delete(id);
  }
}

const comparePositionText = (a: string, b: string): number => comparePositions(parsePosition(a), parsePosition(b));
