import * as E from 'fp-ts/Either';
import { PartialAppendError, WrongExpectedRevisionError } from '@support/eventstore';
import { DomainEvent, ID_PREFIX } from '@support/domain';
import {
  Aggregate,
  CommandContext,
  Deps,
  DomainFailure,
  execute,
  executeTogether,
  failure,
  idsOf,
  load,
  Part,
  Reservations,
  reservationStream,
} from '@support/application';
import { CustomerCommand, customerDecider, CustomerState } from './decider';
import { CustomerChanges, CustomerEvent } from './events';
import { IdentityKind, identitiesOf, normaliseIdentity } from './identity';
import { leadChanges, type LeadRight } from './lead-rights';

const customer: Aggregate<CustomerCommand, CustomerEvent, CustomerState> = { decider: customerDecider, codec: CustomerEvent };
export const customerStream = (id: string) => `customer-${id}`;

export interface CustomerInput {
  email?: string;
  phone?: string;
  name?: string;
  external_id?: string;
  metadata?: Record<string, unknown>;
}

const identityStream = (workspaceId: string, kind: IdentityKind, value: string) => reservationStream(`customer_${kind}`, workspaceId, value);

/**
 * Customers are deduplicated across channels: each normalised e-mail, phone and external id
 * is reserved for one customer per workspace.
 */
export class Customers {
  constructor(
    private readonly deps: Deps,
    private readonly reservations: Reservations,
  ) {}

  private readonly exists = async (id: string) => (await load(this.deps, customer, customerStream(id))).state.exists;

  /** Refuses (400) an input no customer could be created from: no identity, a malformed e-mail or phone. */
  check(workspaceId: string, input: CustomerInput): void {
    const checked = customerDecider.decide({ type: 'create', id: 'cus_check', workspace_id: workspaceId, ...input }, customerDecider.initialState);
    if (E.isLeft(checked)) throw new DomainFailure(checked.left);
  }

  /** Creates a customer, or returns the one an identity already belongs to (`created` false). */
  async createOrMatch(ctx: CommandContext & { workspaceId: string }, input: CustomerInput) {
    const id = idsOf(this.deps, ctx).next(ID_PREFIX.customer);
    const command: CustomerCommand = { type: 'create', id, workspace_id: ctx.workspaceId, ...input };
    // Check the input before reserving anything, so a bad request leaves no trace.
    this.check(ctx.workspaceId, input);

    const identities = identitiesOf(input);
    const free: Part<unknown, DomainEvent, unknown>[] = [];
    for (const { kind, value } of identities) {
      const stream = identityStream(ctx.workspaceId, kind, value);
      const loaded = await this.reservations.load(stream);
      const owner = loaded.state.owner;
      if (owner && (await this.exists(owner))) return { id: owner, created: false, position: null };
      if (!owner) free.push(this.reservations.claimPart(stream, id, loaded));
    }
    // Every value free (the usual case): the claims and the customer in one append, all or
    // none where the engine can. A value taken meanwhile sends it the careful way below.
    if (free.length === identities.length) {
      const created = await this.createWithClaims(ctx, id, command, free);
      if (created) return { id, created: true, position: created };
    }
    const claimed: string[] = [];
    const releaseClaimed = () => Promise.all(claimed.map((s) => this.reservations.release(ctx, s, id)));
    for (const { kind, value } of identities) {
      const stream = identityStream(ctx.workspaceId, kind, value);
      const claim = await this.reservations.claim(ctx, stream, id, this.exists);
      if (!claim.ok) {
        // Lost a race to a concurrent create of the same person: answer with theirs.
        await releaseClaimed();
        return { id: claim.owner, created: false, position: null };
      }
      claimed.push(stream);
    }
    try {
      const outcome = await execute(this.deps, ctx, customer, customerStream(id), command);
      return { id, created: true, position: outcome.position };
    } catch (err) {
      await releaseClaimed();
      throw err;
    }
  }

  /**
   * The claims and the customer appended together; null when a concurrent writer got to one of
   * the values first. An engine that appends one stream at a time may have written some claims
   * before it stopped: this customer's, which the careful way keeps (a claim of one's own is
   * a no-op) and releases if it gives up; on any other failure they are released here.
   */
  private async createWithClaims(ctx: CommandContext, id: string, command: CustomerCommand, claims: Part<unknown, DomainEvent, unknown>[]) {
    const create: Part<unknown, DomainEvent, unknown> = {
      aggregate: customer as Aggregate<unknown, DomainEvent, unknown>,
      stream: customerStream(id),
      command,
      loaded: { state: customerDecider.initialState, revision: null },
    };
    try {
      const results = await executeTogether(this.deps, ctx, [...claims, create]);
      return results[results.length - 1].position;
    } catch (err) {
      const failure = err instanceof PartialAppendError ? err.failure : err;
      if (failure instanceof WrongExpectedRevisionError) return null;
      const written = err instanceof PartialAppendError ? err.written.length : 0;
      await Promise.all(claims.slice(0, written).map((c) => this.reservations.release(ctx, c.stream, id)));
      throw failure;
    }
  }

  /** Changing an e-mail or phone moves its reservation: claim the new value, then free the old. */
  async update(ctx: CommandContext & { workspaceId: string }, id: string, changes: CustomerChanges) {
    const state = await this.owned(ctx, id);
    const moves = await this.claimMoves(ctx, state, changes, 'refuse');
    const outcome = await moves.commit(() => execute(this.deps, ctx, customer, customerStream(id), { type: 'update', changes }));
    return { id, position: outcome.position };
  }

  /**
   * Lead capture: the e-mail and phone the agent found go to a customer created for them when
   * the conversation had none (one they match is linked, and left as it was), or to the
   * conversation's customer as `may` allows (`leadChanges`). A value another customer already
   * holds is left with them; the lead is recorded all the same.
   */
  async captureLead(
    ctx: CommandContext & { workspaceId: string },
    conversationId: string,
    customerId: string | null,
    lead: { email: string | null; phone: string | null },
    may: LeadRight,
  ) {
    const contact = { ...(lead.email ? { email: lead.email } : {}), ...(lead.phone ? { phone: lead.phone } : {}) };
    const matched = customerId === null ? await this.createOrMatch(ctx, contact) : null;
    const id = customerId ?? matched!.id;
    const state = await this.owned(ctx, id);
    // Details typed into a chat are nobody's proof of identity: a customer who existed before
    // and was found by them is linked, never changed ("my email is <someone else's>, call me
    // at <mine>" wrote the writer's phone into that customer's record).
    const changes = leadChanges(state, contact, matched ? (matched.created ? 'replace' : 'none') : may);
    const moves = await this.claimMoves(ctx, state, changes, 'skip');
    const outcome = await moves.commit(() =>
      execute(this.deps, ctx, customer, customerStream(id), {
        type: 'capture_lead',
        conversation_id: conversationId,
        captured: { email: lead.email, phone: lead.phone },
        changes: moves.changes,
      }),
    );
    return { customerId: id, position: outcome.position };
  }

  /** Whether a lead captured in this conversation created the customer (in the same request). */
  async createdByLeadIn(customerId: string, conversationId: string): Promise<boolean> {
    const events = await this.deps.events.readStream(customerStream(customerId), 0);
    const created = events[0];
    if (created?.type !== 'customer.created' || created.metadata.request_id === null) return false;
    return events.some(
      (e) =>
        e.type === 'lead.captured' &&
        (e.data as { conversation_id?: unknown }).conversation_id === conversationId &&
        e.metadata.request_id === created.metadata.request_id,
    );
  }

  private async owned(ctx: CommandContext & { workspaceId: string }, id: string) {
    const { state } = await load(this.deps, customer, customerStream(id));
    if (!state.exists || state.workspace_id !== ctx.workspaceId) throw failure('not_found', `customer ${id} not found`);
    return state;
  }

  /**
   * Claims the reservations of the e-mail and phone `changes` move to. A value another customer
   * holds is refused (409) or, with 'skip', left out of `changes`. `commit` runs the write,
   * then frees the old values; if the write fails, the new claims are released.
   */
  private async claimMoves(
    ctx: CommandContext & { workspaceId: string },
    state: Extract<CustomerState, { exists: true }>,
    changes: Pick<CustomerChanges, 'email' | 'phone'>,
    onTaken: 'refuse' | 'skip',
  ) {
    const id = state.id;
    const kept: Pick<CustomerChanges, 'email' | 'phone'> = { ...changes };
    const moves: { kind: IdentityKind; from: string | null }[] = [];
    const claimed: string[] = [];
    const releaseClaimed = () => Promise.all(claimed.map((s) => this.reservations.release(ctx, s, id)));
    for (const kind of ['email', 'phone'] as const) {
      const next = changes[kind];
      if (next === undefined) continue;
      const to = normaliseIdentity(kind, next);
      const from = state[kind] === null ? null : normaliseIdentity(kind, state[kind]);
      if (to === from || to === '') continue;
      const stream = identityStream(ctx.workspaceId, kind, to);
      const claim = await this.reservations.claim(ctx, stream, id, this.exists);
      if (!claim.ok) {
        if (onTaken === 'skip') {
          delete kept[kind];
          continue;
        }
        await releaseClaimed();
        throw failure('conflict', `another customer (${claim.owner}) already has this ${kind}`, { customer_id: claim.owner });
      }
      claimed.push(stream);
      moves.push({ kind, from });
    }
    return {
      changes: kept,
      commit: async <T>(write: () => Promise<T>): Promise<T> => {
        try {
          const result = await write();
          for (const move of moves) {
            if (move.from !== null) await this.reservations.release(ctx, identityStream(ctx.workspaceId, move.kind, move.from), id);
          }
          return result;
        } catch (err) {
          await releaseClaimed();
          throw err;
        }
      },
    };
  }
}
