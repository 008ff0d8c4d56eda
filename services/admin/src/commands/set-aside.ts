import { Application, failure } from '@support/application';
import { Projector, SetAsideLog, SetAsideRecord } from '@support/projections';
import { flags, Output, required } from '../cli';
import { ALL_PROJECTIONS } from '@support/catalog';

/**
 * What an operator does with the events a projector set aside (a read model could not apply
 * them): list them, apply one again (once the cause is fixed), or acknowledge it (skip).
 */

/** `projections set-aside [--all]`: those still set aside, oldest first; `--all` adds the skipped ones (the audit trail). */
export const listSetAside = async (app: Application, out: Output, args: string[]) => {
  const v = flags(args, { all: 'boolean' });
  const records = await new SetAsideLog(app.engines.reads).list();
  const shown = v.all ? records : records.filter((r) => r.status === 'set_aside');
  if (out.json) return out.result({ set_aside: shown });
  if (shown.length === 0) return out.result({ set_aside: 'none' });
  for (const r of shown) out.result({ [r.id]: `${r.status} ${r.event_type} ${r.stream}@${r.revision} (${r.attempts} attempts): ${r.error}` });
};

const find = async (log: SetAsideLog, id: string): Promise<SetAsideRecord> => {
  const record = await log.get(id);
  if (!record) throw failure('not_found', `no set-aside event ${id}`);
  return record;
};

/**
 * `projections retry --id ID`: applies the event to its read model now (documents carry `_pos`,
 * so one that a later event already changed is left as it is). Applied: the record goes.
 * Failing again: the record stays, counted, and the command fails with the error.
 */
export const retrySetAside = async (app: Application, out: Output, args: string[]) => {
  const id = required(flags(args, { id: 'string' }), 'id');
  const log = new SetAsideLog(app.engines.reads);
  const record = await find(log, id);
  const projection = ALL_PROJECTIONS.find((p) => p.collection.name === record.read_model);
  if (!projection) throw failure('validation', `unknown read model ${record.read_model}`);
  const event = (await app.engines.events.readStream(record.stream, record.revision)).find((e) => e.revision === record.revision);
  if (!event) throw failure('not_found', `event ${record.stream}@${record.revision} is not in the log`);
  try {
    await new Projector(app.engines.events, app.engines.reads, [projection], app.log).applyAlone(event, record.read_model);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    await log.record(record.read_model, event, error, new Date().toISOString(), 1);
    throw failure('conflict', `${id} still cannot be applied: ${error}`);
  }
  await log.remove(id);
  out.result({ id, read_model: record.read_model, position: record.position, status: 'applied' });
};

/** `projections skip --id ID`: acknowledged, left unapplied; the record stays with status `skipped`. */
export const skipSetAside = async (app: Application, out: Output, args: string[]) => {
  const id = required(flags(args, { id: 'string' }), 'id');
  const log = new SetAsideLog(app.engines.reads);
  const record = await find(log, id);
  if (record.status === 'skipped') return out.result(record);
  const skipped = await log.skip(id, new Date().toISOString());
  if (!skipped) throw failure('conflict', `${id} changed meanwhile; try again`);
  out.result(skipped);
};
