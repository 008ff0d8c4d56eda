import type { Application } from '@support/application';
import { type Workspace, workspacesOf } from '@support/workspaces';
import { type AdminRun, flags, onOff, Output, Refused, required, UsageError, wholeNumber } from '../cli';

const print = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  plan: w.plan,
  credits: w.credits,
  sla_tracking: w.sla_tracking,
  email: w.email ?? null,
});

export const workspaceCommand = async (app: Application, out: Output, [sub, ...args]: string[], run: AdminRun) => {
  switch (sub) {
    case 'create': {
      const v = flags(args, { name: 'string', slug: 'string', plan: 'string', credits: 'string', 'sla-tracking': 'string', email: 'string' });
      const { workspace } = await workspacesOf(app).commands.create(run, {
        name: required(v, 'name'),
        slug: v.slug as string | undefined,
        plan: v.plan as string | undefined,
        credits: wholeNumber(v.credits, 'credits'),
        sla_tracking: onOff(v['sla-tracking'], 'sla-tracking'),
        email: v.email as string | undefined,
      });
      return out.result(print(workspace));
    }
    case 'set': {
      const v = flags(args, { id: 'string', plan: 'string', credits: 'string', 'sla-tracking': 'string', email: 'string' });
      const changes = {
        plan: v.plan as string | undefined,
        credits: wholeNumber(v.credits, 'credits'),
        sla_tracking: onOff(v['sla-tracking'], 'sla-tracking'),
        email: v.email as string | undefined,
      };
      if (Object.values(changes).every((c) => c === undefined)) throw new UsageError('give at least one of --plan, --credits, --sla-tracking, --email');
      const { workspace } = await workspacesOf(app).commands.update({ ...run, workspaceId: required(v, 'id') }, required(v, 'id'), changes);
      return out.result(print(workspace));
    }
    case 'get': {
      const v = flags(args, { id: 'string' });
      const workspace = await workspacesOf(app).commands.get(required(v, 'id'));
      if (!workspace) throw new Refused(`workspace ${v.id} not found`);
      return out.result(print(workspace));
    }
    default:
      throw new UsageError('workspace commands: create, set, get');
  }
};
