import { AccessLevel, ACCESS_LEVELS, ID_PREFIX, scopesForAccess } from '@support/domain';
import { Aggregate, CommandContext, Deps, execute, failure, load } from '@support/application';
import { ApiKeyCommand, apiKeyDecider, ApiKeyState } from './key-decider';
import { ApiKeyEvent } from './key-events';
import { hashToken, newToken } from './tokens';
import { Workspaces } from './workspace-commands';

const apiKey: Aggregate<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = { decider: apiKeyDecider, codec: ApiKeyEvent };
export const apiKeyStream = (id: string) => `apikey-${id}`;

export interface CreateKey {
  workspaceId: string;
  name: string;
  environment?: string;
  access?: string;
  scopes?: string[];
  expiresAt?: string | null;
}

export class ApiKeys {
  constructor(
    private readonly deps: Deps,
    private readonly workspaces: Workspaces,
  ) {}

  /** Returns the secret once; only its hash is recorded. */
  async create(ctx: CommandContext, input: CreateKey) {
    if (!(await this.workspaces.get(input.workspaceId))) throw failure('not_found', `workspace ${input.workspaceId} not found`);
    const access = input.access ?? 'full';
    if (!(ACCESS_LEVELS as readonly string[]).includes(access)) throw failure('validation', `access must be one of ${ACCESS_LEVELS.join(', ')}`);
    const environment = input.environment ?? 'live';
    const id = this.deps.ids.next(ID_PREFIX.apiKey);
    const key = newToken(id, environment === 'test' ? 'test' : 'live');
    const scopes = input.scopes ?? scopesForAccess(access as AccessLevel);
    const expires_at = input.expiresAt ? normaliseTime(input.expiresAt) : null;
    const outcome = await execute(this.deps, { ...ctx, workspaceId: input.workspaceId }, apiKey, apiKeyStream(id), {
      type: 'create',
      id,
      workspace_id: input.workspaceId,
      name: input.name,
      environment,
      scopes,
      key_hash: hashToken(key).toString('hex'),
      expires_at,
    });
    return { id, key, name: input.name, environment, scopes: [...new Set(scopes)], expires_at, workspace_id: input.workspaceId, position: outcome.position };
  }

  async revoke(ctx: CommandContext, id: string) {
    // The revocation is in its key's workspace's history (an audit replays it by workspace), whoever revokes it.
    const { state } = await load(this.deps, apiKey, apiKeyStream(id));
    const outcome = await execute(this.deps, { ...ctx, workspaceId: state.exists ? state.workspace_id : ctx.workspaceId }, apiKey, apiKeyStream(id), {
      type: 'revoke',
    });
    return { id, revoked: true as const, position: outcome.position };
  }
}

const normaliseTime = (text: string): string => {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw failure('validation', `expires-at "${text}" is not an ISO 8601 time`);
  return new Date(ms).toISOString();
};
