import {
  Aggregate,
  type Application,
  CommandContext,
  Deps,
  execute,
  executeAll,
  failure,
  idsOf,
  KeyedBatches,
  perApplication,
  priorWrite,
} from '@support/application';
import { ID_PREFIX } from '@support/domain';
import { checkWebhookUrl, GuardOptions, newSigningSecret } from '@support/webhooks';
import { WebhookEndpointCommand, webhookEndpointDecider, WebhookEndpointState } from './decider';
import { WebhookEndpointChanges, WebhookEndpointEvent } from './events';
import { endpointsOf } from './read-model';

const endpoint: Aggregate<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState> = {
  decider: webhookEndpointDecider,
  codec: WebhookEndpointEvent,
};
export const webhookEndpointStream = (id: string) => `webhook_endpoint-${id}`;

/** Documented limit: endpoints per workspace (as Stripe's). */
export const MAX_ENDPOINTS = 16;

type Ctx = CommandContext & { workspaceId: string };

/** One delivery attempt's outcome, as the dispatcher reports it. `gone`: the receiver answered 410. */
export interface AttemptReport {
  delivery_id: string;
  ok: boolean;
  gone: boolean;
  error: string | null;
}

export class WebhookEndpoints {
  constructor(
    private readonly deps: Deps,
    private readonly guard: GuardOptions,
    private readonly countEndpoints: (workspaceId: string) => Promise<number>,
    /** Told of each endpoint the attempts disable, and why (`gone`, `consecutive_failures`). */
    private readonly disabled: (reason: string) => void = () => undefined,
  ) {}

  /** The URL guard at registration: HTTPS, and no internal, loopback or metadata address after DNS. */
  private async checkUrl(url: string) {
    const checked = await checkWebhookUrl(url, this.guard);
    if (!checked.ok) throw failure('validation', `url refused: ${checked.reason}`);
  }

  /** `replayed`: a retry of a create that was saved (its secret is the stored one, not `secret`). */
  async create(ctx: Ctx, input: { url: string; description?: string | null; enabled_events: string[] }) {
    const id = idsOf(this.deps, ctx).next(ID_PREFIX.webhookEndpoint);
    const prior = await priorWrite(this.deps, endpoint, webhookEndpointStream(id), ctx);
    if (prior) return { id, secret: null, position: prior, replayed: true };
    await this.checkUrl(input.url);
    if ((await this.countEndpoints(ctx.workspaceId)) >= MAX_ENDPOINTS)
      throw failure('conflict', `a workspace has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`);
    const secret = newSigningSecret();
    const outcome = await execute(this.deps, ctx, endpoint, webhookEndpointStream(id), {
      type: 'create',
      id,
      workspace_id: ctx.workspaceId,
      url: input.url,
      description: input.description ?? null,
      enabled_events: input.enabled_events,
      secret,
    });
    // The same request may have raced itself to the append (a client's retries at once): the
    // one that lost made a secret nothing stored, so it must show the stored one (null here).
    const replayed = outcome.replayed ?? false;
    return { id, secret: replayed ? null : secret, position: outcome.position, replayed };
  }

  async update(ctx: Ctx, id: string, changes: WebhookEndpointChanges) {
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const outcome = await execute(this.deps, ctx, endpoint, webhookEndpointStream(id), { type: 'update', workspace_id: ctx.workspaceId, changes });
    return { id, position: outcome.position };
  }

  async delete(ctx: Ctx, id: string) {
    const outcome = await execute(this.deps, ctx, endpoint, webhookEndpointStream(id), { type: 'delete', workspace_id: ctx.workspaceId });
    return { id, position: outcome.position };
  }

  /** A new secret, effective at once: the next delivery is signed with it. */
  async rollSecret(ctx: Ctx, id: string) {
    const secret = newSigningSecret();
    const outcome = await execute(this.deps, ctx, endpoint, webhookEndpointStream(id), { type: 'roll_secret', workspace_id: ctx.workspaceId, secret });
    return { id, secret, position: outcome.position, replayed: outcome.replayed ?? false };
  }

  /**
   * The dispatcher's report of one attempt: counts failures, disables at the threshold or on
   * 410. The events are the endpoint's workspace's (an audit replays a workspace's history).
   */
  recordAttempt(endpoint: { id: string; workspace_id: string }, attempt: AttemptReport): Promise<void> {
    return this.attempts.add(endpoint.id, { workspaceId: endpoint.workspace_id, attempt });
  }

  /**
   * Every report counts, exactly: reports for one endpoint are booked by one writer, in
   * batches (one append each), and a conflict with another process or a PATCH is decided
   * again until booked, as each conflict means another writer got through.
   */
  private readonly attempts = new KeyedBatches<{ workspaceId: string; attempt: AttemptReport }>(async (id, items) => {
    const ctx: CommandContext = { workspaceId: items[0].workspaceId, actor: 'system', requestId: null };
    const reports = items.map((i) => i.attempt);
    const { events } = await executeAll(
      this.deps,
      ctx,
      endpoint,
      webhookEndpointStream(id),
      reports.map((r) => ({ type: 'record_attempt' as const, ...r })),
      Infinity,
    );
    for (const e of events) if (e.type === 'webhook_endpoint.disabled') this.disabled(e.data.reason);
  });
}

/** The SSRF guard's settings, for registration and for every delivery. */
export const webhookGuardOf = (app: Application): GuardOptions => ({
  allowPrivateNetworks: app.config.webhooks.allowPrivateNetworks,
  allowedCidrs: app.config.webhooks.allowedCidrs,
});

/** The application's endpoint commands: a workspace's endpoints are counted in its read model. */
export const webhookEndpointsOf = perApplication((app: Application) => {
  const disables = app.metrics.counterOf(
    'support_webhook_endpoint_disables_total',
    'Endpoints disabled by their delivery attempts, by reason (gone: a 410; consecutive_failures: 15 in a row)',
    'reason',
    ['gone', 'consecutive_failures'],
  );
  return new WebhookEndpoints(
    app.deps,
    webhookGuardOf(app),
    async (ws) => (await endpointsOf(app).scoped.find(ws, {})).items.length,
    (reason) => disables.inc({ reason }),
  );
});
