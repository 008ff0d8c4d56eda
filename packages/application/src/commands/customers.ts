import * as E from 'fp-ts/Either';
import { CustomerChanges, CustomerCommand, customerDecider, CustomerEvent, CustomerState, ID_PREFIX, IdentityKind, identitiesOf, normaliseIdentity } from '@support/domain';
import { DomainFailure, failure } from '../errors';
import { Aggregate, CommandContext, Deps, execute, load } from './execute';
import { Reservations, reservationStream } from './reservations';

const customer: Aggregate<CustomerCommand, CustomerEvent, CustomerState> = { decider: customerDecider, codec: CustomerEvent };
export const customerStream = (id: string) => `customer-${id}`;

export interface CustomerInput { email?: string; phone?: string; name?: string; external_id?: string; metadata?: Record<string, unknown> }

const identityStream = (workspaceId: string, kind: IdentityKind, value: string) =>
  reservationStream(`customer_${kind}`, workspaceId, value);

/**
 * Customers are deduplicated across channels: each normalised e-mail, phone and external id
 * is reserved for one customer per workspace.
 */
export class Customers {
  constructor(private readonly deps: Deps, private readonly reservations: Reservations) {}

  private readonly exists = async (id: string) => (await load(this.deps, customer, customerStream(id))).state.exists;

  /** Creates a customer, or returns the one an identity already belongs to (`created` false). */
  async createOrMatch(ctx: CommandContext & { workspaceId: string }, input: CustomerInput) {
    const id = this.deps.ids.next(ID_PREFIX.customer);
    const command: CustomerCommand = { type: 'create', id, workspace_id: ctx.workspaceId, ...input };
    // Check the input before reserving anything, so a bad request leaves no trace.
    const checked = customerDecider.decide(command, customerDecider.initialState);
    if (E.isLeft(checked)) throw new DomainFailure(checked.left);

    const identities = identitiesOf(input);
    for (const { kind, value } of identities) {
      const owner = await this.reservations.owner(identityStream(ctx.workspaceId, kind, value));
      if (owner && (await this.exists(owner))) return { id: owner, created: false, position: null };
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

  /** Changing an e-mail or phone moves its reservation: claim the new value, then free the old. */
  async update(ctx: CommandContext & { workspaceId: string }, id: string, changes: CustomerChanges) {
    const { state } = await load(this.deps, customer, customerStream(id));
    if (!state.exists || state.workspace_id !== ctx.workspaceId) throw failure('not_found', `customer ${id} not found`);
    const moves: { kind: IdentityKind; from: string | null; to: string }[] = [];
    for (const kind of ['email', 'phone'] as const) {
      const next = changes[kind];
      if (next === undefined) continue;
      const to = normaliseIdentity(kind, next);
      const from = state[kind] === null ? null : normaliseIdentity(kind, state[kind]!);
      if (to !== from && to !== '') moves.push({ kind, from, to });
    }
    const claimed: string[] = [];
    const releaseClaimed = () => Promise.all(claimed.map((s) => this.reservations.release(ctx, s, id)));
    for (const move of moves) {
      const stream = identityStream(ctx.workspaceId, move.kind, move.to);
      const claim = await this.reservations.claim(ctx, stream, id, this.exists);
      if (!claim.ok) {
        await releaseClaimed();
        throw failure('conflict', `another customer (${claim.owner}) already has this ${move.kind}`, { customer_id: claim.owner });
      }
      claimed.push(stream);
    }
    try {
      const outcome = await execute(this.deps, ctx, customer, customerStream(id), { type: 'update', changes });
      for (const move of moves) {
        if (move.from !== null) await this.reservations.release(ctx, identityStream(ctx.workspaceId, move.kind, move.from), id);
      }
      return { id, position: outcome.position };
    } catch (err) {
      await releaseClaimed();
      throw err;
    }
  }
}
