import * as E from 'fp-ts/Either';
import { DomainError, DomainEvent } from '@support/domain';
import { endSpan, startSpan, traceparentOfSpan } from '@support/kernel';
import type { Aggregate, CommandContext } from './execute';

// What both ways of running commands share (execute.ts, execute-together.ts): deciding, the events' metadata, the span.

/** Metadata of the events a request appends. */
export const metadataOf = (ctx: CommandContext, occurred_at: string) => ({
  workspace_id: ctx.workspaceId,
  actor: ctx.actor,
  request_id: ctx.requestId,
  occurred_at,
  ...(ctx.idempotencyKey ? { idempotency_key: ctx.idempotencyKey } : {}),
  ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
});

/**
 * A command's span (`append <aggregate>`: decided and appended, a child of the request's), and
 * its context carried by the events it appends. Taken where the command is asked for, since
 * commands on one stream run together later, outside each request's own context.
 */
export const traced = <Ctx extends CommandContext>(ctx: Ctx, stream: string): { ctx: Ctx; end(error?: unknown): void } => {
  const span = startSpan(`append ${stream.slice(0, stream.indexOf('-'))}`, { attributes: { 'support.stream': stream } });
  if (!span) return { ctx, end: () => undefined };
  return { ctx: { ...ctx, traceparent: traceparentOfSpan(span) }, end: (error?: unknown) => endSpan(span, error) };
};

/** The commands decided one after another, each on the state the previous ones leave: their events, or the first rule broken. */
export const decideAll = (
  aggregate: Aggregate<unknown, DomainEvent, unknown>,
  commands: readonly unknown[],
  state: unknown,
): E.Either<DomainError, { state: unknown; events: DomainEvent[] }> => {
  const events: DomainEvent[] = [];
  let next = state;
  for (const command of commands) {
    const decided = aggregate.decider.decide(typeof command === 'function' ? (command as (s: unknown) => unknown)(next) : command, next);
    if (E.isLeft(decided)) return decided;
    events.push(...decided.right);
    next = decided.right.reduce(aggregate.decider.evolve, next);
  }
  return E.right({ state: next, events });
};
