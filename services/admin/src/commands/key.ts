import type { Application } from '@support/application';
import { workspacesOf } from '@support/workspaces';
import { type AdminRun, flags, Output, required, UsageError } from '../cli';

export const keyCommand = async (app: Application, out: Output, [sub, ...args]: string[], run: AdminRun) => {
  switch (sub) {
    case 'create': {
      const v = flags(args, { workspace: 'string', name: 'string', environment: 'string', access: 'string', scopes: 'string', 'expires-at': 'string' });
      const scopes =
        typeof v.scopes === 'string'
          ? v.scopes
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : undefined;
      const key = await workspacesOf(app).keys.create(run, {
        workspaceId: required(v, 'workspace'),
        name: required(v, 'name'),
        environment: v.environment as string | undefined,
        access: v.access as string | undefined,
        scopes,
        expiresAt: v['expires-at'] as string | undefined,
      });
      if (!out.json) out.progress('The key is shown this once; store it now.');
      // Made as asked (operator interface: a past time makes a key already expired), and said.
      if (key.expires_at !== null && Date.parse(key.expires_at) <= app.clock.now().getTime())
        out.progress(`warning: --expires-at ${key.expires_at} has passed: this key is already expired and every request with it answers 401`);
      return out.result({
        id: key.id,
        key: key.key,
        name: key.name,
        environment: key.environment,
        scopes: key.scopes,
        workspace_id: key.workspace_id,
        expires_at: key.expires_at,
      });
    }
    case 'revoke': {
      const v = flags(args, { id: 'string' });
      const { id, revoked } = await workspacesOf(app).keys.revoke(run, required(v, 'id'));
      return out.result({ id, revoked });
    }
    default:
      throw new UsageError('key commands: create, revoke');
  }
};
