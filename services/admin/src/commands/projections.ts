import type { Application } from '@support/application';
import { ALL_PROJECTIONS, Projector } from '@support/projections';
import { flags, Output, UsageError } from '../cli';

export const projectionsCommand = async (app: Application, out: Output, [sub, ...args]: string[]) => {
  if (sub !== 'rebuild') throw new UsageError('projections commands: rebuild');
  const v = flags(args, { name: 'string' });
  const names = ALL_PROJECTIONS.map((p) => p.collection.name);
  const chosen = typeof v.name === 'string' ? ALL_PROJECTIONS.filter((p) => p.collection.name === v.name) : ALL_PROJECTIONS;
  if (chosen.length === 0) throw new UsageError(`unknown projection "${v.name}"; known: ${names.join(', ')}`);
  const projector = new Projector(app.engines.events, app.engines.reads, chosen, app.log);
  let last = Date.now();
  const result = await projector.rebuild(
    (applied) => {
      if (Date.now() - last >= 1000) {
        out.progress(`${applied} events applied…`);
        last = Date.now();
      }
    },
    { complete: chosen.length === ALL_PROJECTIONS.length },
  );
  out.result({ projections: chosen.map((p) => p.collection.name), events: result.events, ms: result.ms });
};
