import { Aggregate, CommandContext, Deps, execute, failure, idsOf, load, priorWrite, Reservations, reservationStream } from '@support/application';
import { ID_PREFIX } from '@support/domain';
import { TagCommand, tagDecider, tagNameKey, TagState } from './decider';
import { TagChanges, TagEvent } from './events';

const tag: Aggregate<TagCommand, TagEvent, TagState> = { decider: tagDecider, codec: TagEvent };
export const tagStream = (id: string) => `tag-${id}`;

/** Tag names are unique per workspace, compared without case. */
export class Tags {
  constructor(
    private readonly deps: Deps,
    private readonly reservations: Reservations,
  ) {}

  private readonly live = async (id: string) => (await load(this.deps, tag, tagStream(id))).state.status === 'live';
  private readonly nameStream = (workspaceId: string, name: string) => reservationStream('tag_name', workspaceId, tagNameKey(name));

  private async claimName(ctx: CommandContext & { workspaceId: string }, id: string, name: string) {
    if (tagNameKey(name) === '') throw failure('validation', 'name must not be empty');
    const claim = await this.reservations.claim(ctx, this.nameStream(ctx.workspaceId, name), id, this.live);
    if (!claim.ok) throw failure('conflict', `a tag named "${name.trim()}" already exists`, { tag_id: claim.owner });
  }

  async create(ctx: CommandContext & { workspaceId: string }, input: { name: string; color?: string | null }) {
    const id = idsOf(this.deps, ctx).next(ID_PREFIX.tag);
    // A retry of a create that was saved: its name is claimed by the tag it made.
    const prior = await priorWrite(this.deps, tag, tagStream(id), ctx);
    if (prior) return { id, position: prior };
    await this.claimName(ctx, id, input.name);
    try {
      const outcome = await execute(this.deps, ctx, tag, tagStream(id), {
        type: 'create',
        id,
        workspace_id: ctx.workspaceId,
        name: input.name,
        color: input.color ?? null,
      });
      return { id, position: outcome.position };
    } catch (err) {
      await this.reservations.release(ctx, this.nameStream(ctx.workspaceId, input.name), id);
      throw err;
    }
  }

  private async current(ctx: { workspaceId: string }, id: string) {
    const { state } = await load(this.deps, tag, tagStream(id));
    if (state.status !== 'live' || state.workspace_id !== ctx.workspaceId) throw failure('not_found', `tag ${id} not found`);
    return state;
  }

  async update(ctx: CommandContext & { workspaceId: string }, id: string, changes: TagChanges) {
    const state = await this.current(ctx, id);
    const renamed = changes.name !== undefined && tagNameKey(changes.name) !== tagNameKey(state.name);
    if (renamed) await this.claimName(ctx, id, changes.name!);
    try {
      const outcome = await execute(this.deps, ctx, tag, tagStream(id), { type: 'update', changes });
      if (renamed) await this.reservations.release(ctx, this.nameStream(ctx.workspaceId, state.name), id);
      return { id, position: outcome.position };
    } catch (err) {
      if (renamed) await this.reservations.release(ctx, this.nameStream(ctx.workspaceId, changes.name!), id);
      throw err;
    }
  }

  async delete(ctx: CommandContext & { workspaceId: string }, id: string) {
    const state = await this.current(ctx, id);
    const outcome = await execute(this.deps, ctx, tag, tagStream(id), { type: 'delete' });
    await this.reservations.release(ctx, this.nameStream(ctx.workspaceId, state.name), id);
    return { id, position: outcome.position };
  }
}
