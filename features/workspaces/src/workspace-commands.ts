import { ID_PREFIX } from '@support/domain';
import { Aggregate, CommandContext, Deps, execute, failure, load, Reservations, reservationStream, withoutIdempotency } from '@support/application';
import { slugify, SLUG, WorkspaceCommand, workspaceDecider, WorkspaceState } from './workspace-decider';
import { WorkspaceEvent } from './workspace-events';

const workspace: Aggregate<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = { decider: workspaceDecider, codec: WorkspaceEvent };
export const workspaceStream = (id: string) => `workspace-${id}`;

export type Workspace = Extract<WorkspaceState, { exists: true }> extends infer W ? Omit<W, 'exists'> : never;

export interface CreateWorkspace {
  name: string;
  slug?: string;
  plan?: string;
  credits?: number;
  sla_tracking?: boolean;
  email?: string;
}

const view = (s: WorkspaceState): Workspace | null => {
  if (!s.exists) return null;
  const { exists: _exists, ...w } = s;
  return w;
};

/** Defaults for a new workspace (operator interface): the pro plan with 1000 credits. */
export const WORKSPACE_DEFAULTS = { plan: 'pro', credits: 1000, sla_tracking: false } as const;

const CHARGE_ATTEMPTS = 200;

export class Workspaces {
  constructor(
    private readonly deps: Deps,
    private readonly reservations: Reservations,
  ) {}

  async get(id: string): Promise<Workspace | null> {
    return view((await load(this.deps, workspace, workspaceStream(id))).state);
  }

  private readonly exists = async (id: string) => (await this.get(id)) !== null;

  async create(ctx: CommandContext, input: CreateWorkspace) {
    const id = this.deps.ids.next(ID_PREFIX.workspace);
    const slug = await this.claimSlug(ctx, id, input);
    const outcome = await execute(this.deps, { ...ctx, workspaceId: id }, workspace, workspaceStream(id), {
      type: 'create',
      id,
      name: input.name,
      slug,
      plan: input.plan ?? WORKSPACE_DEFAULTS.plan,
      credits: input.credits ?? WORKSPACE_DEFAULTS.credits,
      sla_tracking: input.sla_tracking ?? WORKSPACE_DEFAULTS.sla_tracking,
      email: input.email ?? null,
    }).catch(async (err) => {
      await this.reservations.release(ctx, reservationStream('workspace_slug', '', slug), id);
      throw err;
    });
    return { workspace: view(outcome.state)!, position: outcome.position };
  }

  /** An explicit slug must be free; a derived one gets a suffix from the id when taken. */
  private async claimSlug(ctx: CommandContext, id: string, input: CreateWorkspace): Promise<string> {
    const candidates = input.slug !== undefined ? [input.slug] : [slugify(input.name), `${slugify(input.name).slice(0, 55)}-${id.slice(-8).toLowerCase()}`];
    for (const slug of candidates) {
      if (!SLUG.test(slug)) throw failure('validation', 'slug must be lowercase letters, digits and dashes (1 to 64)');
      const claim = await this.reservations.claim(ctx, reservationStream('workspace_slug', '', slug), id, this.exists);
      if (claim.ok) return slug;
    }
    throw failure('conflict', `slug "${input.slug}" is taken by another workspace`);
  }

  /**
   * Takes a reply's price from the balance, appended with the stream's revision: concurrent
   * charges are decided again on the new balance until each succeeds or finds it short
   * (plan_limit), so the balance never goes below zero. Every retry sees progress by another
   * charge, hence the generous bound.
   */
  async charge(ctx: CommandContext & { workspaceId: string }, amount: number, turnId: string, conversationId: string) {
    return this.credits(ctx, { type: 'charge', amount, turn_id: turnId, conversation_id: conversationId });
  }

  /** Gives a charge back when its turn recorded no reply. */
  async refund(ctx: CommandContext & { workspaceId: string }, amount: number, turnId: string) {
    return this.credits(ctx, { type: 'refund', amount, turn_id: turnId });
  }

  /** A charge or refund: a consequence of a turn, so without the request's idempotency key. */
  private async credits(ctx: CommandContext & { workspaceId: string }, command: Extract<WorkspaceCommand, { type: 'charge' | 'refund' }>) {
    return (await execute(this.deps, withoutIdempotency(ctx), workspace, workspaceStream(ctx.workspaceId), command, CHARGE_ATTEMPTS)).position;
  }

  async update(ctx: CommandContext, id: string, changes: { plan?: string; credits?: number; sla_tracking?: boolean; email?: string }) {
    const outcome = await execute(this.deps, { ...ctx, workspaceId: id }, workspace, workspaceStream(id), { type: 'update', changes });
    return { workspace: view(outcome.state)!, position: outcome.position };
  }
}
