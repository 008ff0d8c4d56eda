import * as E from 'fp-ts/Either';
import { DomainEvent } from '@support/domain';
import { AppendResult, Position } from '@support/eventstore';
import { DomainFailure } from '../errors';
import { decideAll, metadataOf, traced } from './decided';
import type { Aggregate, CommandContext, Deps } from './execute';
import { cacheOf, remember, withKeys } from './stream-cache';

/** A command for `executeTogether`, with the state of its stream it is decided on. */
export interface Part<C, Ev extends DomainEvent, S> {
  aggregate: Aggregate<C, Ev, S>;
  stream: string;
  command: C;
  /** From `load`: the command is decided on it, and the append expects its revision. */
  loaded: { state: S; revision: number | null; keys?: ReadonlyMap<string, Position> };
}

/**
 * Commands on several streams, each decided on the state given and each writing something,
 * appended in one `appendMany`: all or none where the engine can (see the port). Not queued
 * behind other commands on those streams and never retried: a rule that fails throws its
 * DomainFailure before anything is written; a concurrent writer's WrongExpectedRevisionError
 * (or the PartialAppendError around it) goes to the caller, which knows how to go on.
 */
export const executeTogether = async (deps: Deps, given: CommandContext, parts: readonly Part<unknown, DomainEvent, unknown>[]): Promise<AppendResult[]> => {
  const span = traced(given, parts[0]?.stream ?? 'together-');
  try {
    const results = await appendTogether(deps, span.ctx, parts);
    span.end();
    return results;
  } catch (err) {
    span.end(err);
    throw err;
  }
};

const appendTogether = async (deps: Deps, ctx: CommandContext, parts: readonly Part<unknown, DomainEvent, unknown>[]): Promise<AppendResult[]> => {
  const decided = parts.map((part) => {
    const result = decideAll(part.aggregate, [part.command], part.loaded.state);
    if (E.isLeft(result)) throw new DomainFailure(result.left);
    return { part, ...result.right };
  });
  const occurred_at = deps.clock.now().toISOString();
  const metadata = metadataOf(ctx, occurred_at);
  const results = await deps.events.appendMany(
    decided.map(({ part, events }) => ({
      stream: part.stream,
      events: events.map((e) => ({ id: deps.ids.eventId(), type: e.type, data: e.data, metadata })),
      expected: part.loaded.revision === null ? 'no_stream' : part.loaded.revision,
    })),
  );
  const added = (i: number) => (ctx.idempotencyKey ? [{ key: ctx.idempotencyKey, position: results[i].position }] : []);
  decided.forEach(({ part, state }, i) =>
    remember(cacheOf(deps.events, part.aggregate.decider), part.stream, {
      state,
      revision: results[i].revision,
      keys: withKeys(part.loaded.keys ?? new Map<string, Position>(), added(i)),
    }),
  );
  return results;
};
