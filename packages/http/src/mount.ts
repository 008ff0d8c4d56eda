import type Router from '@koa/router';
import type { Context } from 'koa';
import type {} from 'koa-bodyparser';
import type { Application, Principal } from '@support/application';
import type { Api } from './api';
import { planAccess, Plan } from '@support/domain';
import { decodeOrThrow, describeErrors } from './codec/report';
import { ApiError, toApiError } from './errors';
import type { Identity } from './middleware/identify';
import { HandlerInput, RouteDef } from './route';
import { IdempotencyStore } from './limits/idempotency-store';
import { JsonText } from './resources/common';

/** The caller's key, or the 401/402/403 of spec 5 and 7; `scope` null: any valid key. */
export const requirePrincipal = (ctx: Context, def: Pick<RouteDef, 'scope'>): Principal => {
  const identity = ctx.state.identity as Identity;
  if (!('principal' in identity)) {
    const message =
      identity.problem === 'missing'
        ? 'No API key provided. Send it as "Authorization: Bearer <key>".'
        : identity.problem === 'malformed'
          ? 'Malformed Authorization header. Use "Authorization: Bearer <key>".'
          : 'Invalid API key: unknown, expired or revoked.';
    throw new ApiError(401, message, 'unauthorized', undefined, { 'WWW-Authenticate': 'Bearer' });
  }
  const { principal } = identity;
  const access = planAccess(principal.workspace.plan as Plan);
  if (access === 'no_plan') throw new ApiError(402, 'This workspace has no active plan.', 'PLAN_LIMIT_REACHED');
  if (access === 'no_api') throw new ApiError(403, 'The workspace plan does not include API access.', 'forbidden');
  if (def.scope && !principal.scopes.includes(def.scope)) {
    throw new ApiError(403, `This key lacks the scope ${def.scope}.`, 'insufficient_scope', { required: [def.scope] });
  }
  return principal;
};

const hasBody = (ctx: Context) => Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';

/** What a keyed request's commands need: the key's hash for the events, and the seed of its ids. */
export interface Idempotency {
  key: string;
  firstSeenMs: number;
}

type Run = (idempotency: Idempotency) => Promise<{ status: number; body: unknown }>;

/** An Idempotency-Key's refusals, the same on every POST (/mcp's too). */
export const IDEMPOTENCY_REFUSALS = {
  tooLong: () => new ApiError(400, 'Idempotency-Key must be at most 255 characters', 'validation_error'),
  mismatch: () => new ApiError(400, 'This Idempotency-Key was already used with a different request (method, path or body).', 'validation_error'),
};

/**
 * A POST with an Idempotency-Key (spec 4.1): the first 2xx answer is replayed as it was; a try
 * that failed, or whose answer was lost, runs again with the same ids, and its commands find
 * the key in their streams and perform nothing twice (limits/idempotency-store.ts).
 */
const idempotent = async (ctx: Context, store: IdempotencyStore, principal: Principal, key: string, run: Run) => {
  if (key.length > 255) throw IDEMPOTENCY_REFUSALS.tooLong();
  const begun = await store.begin(principal.workspaceId, key, IdempotencyStore.fingerprint(ctx.method, ctx.path, ctx.request.body));
  switch (begun.kind) {
    case 'replay':
      ctx.set('Idempotent-Replayed', 'true');
      // This answer's own Request-Id is new: the one that made it is what the log's events name.
      if (begun.requestId) ctx.set('Original-Request-Id', begun.requestId);
      return { status: begun.status, body: begun.body };
    case 'mismatch':
      throw IDEMPOTENCY_REFUSALS.mismatch();
    case 'proceed':
      try {
        const result = await run({ key: begun.key, firstSeenMs: begun.firstSeenMs });
        if (result.status >= 200 && result.status < 300) await store.complete(begun.entryId, result.status, result.body, ctx.state.requestId as string);
        else await store.fail(begun.entryId, result.status);
        return result;
      } catch (err) {
        await store.fail(begun.entryId, toApiError(err)?.status ?? 500).catch(() => undefined);
        throw err;
      }
  }
};

/** What a handler is given: one shape for every request, its `baseUrl` a getter on the class. */
class Input implements HandlerInput<unknown, unknown, unknown> {
  readonly requestId: string;
  idempotency: Idempotency | null = null;
  constructor(
    private readonly ctx: Context,
    readonly app: Application,
    readonly principal: Principal,
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
  ) {
    this.requestId = ctx.state.requestId as string;
  }

  /** Worked out only for the few handlers that use it (Koa's host getter splits a header). */
  get baseUrl(): string {
    return `${this.ctx.protocol}://${this.ctx.host}/v1`;
  }
}

/** The handler's answer; where responses are validated, checked against the route's schema. */
const respond = async (def: RouteDef, app: Application, input: Input): Promise<{ status: number; body: unknown }> => {
  const out = await def.handler(input);
  const status = out.status ?? def.response.status;
  // The OpenAPI document is generated from these codecs: in development and tests every
  // answer is checked against it, so the document cannot drift from what is served.
  if (app.config.validateResponses && status === def.response.status) {
    const checked = def.response.codec.decode(out.body instanceof JsonText ? out.body.toJSON() : out.body);
    if (checked._tag === 'Left')
      throw new Error(`${def.method.toUpperCase()} ${def.path}: the response does not match its schema: ${describeErrors(checked.left, 'response').message}`);
  }
  return { status, body: out.body };
};

/** Registers route declarations on a router: access checks, validation, idempotency, handler. */
export const mountRoutes = (router: Router, api: Api, routes: readonly RouteDef[]) => {
  for (const def of routes) {
    router[def.method](def.path, async (ctx) => {
      const principal = requirePrincipal(ctx, def);
      const params = def.params ? decodeOrThrow(def.params, ctx.params, 'path') : {};
      const query = def.query ? decodeOrThrow(def.query, ctx.query, 'query') : {};
      let body: unknown = {};
      if (def.body) {
        if (hasBody(ctx) && !ctx.is('application/json', '+json')) throw new ApiError(415, 'Send the body as application/json', 'unsupported_media_type');
        // The document marks the body required: none at all is a 400, not an empty change.
        if (!def.bodyOptional && !hasBody(ctx)) throw new ApiError(400, 'A JSON body is required');
        body = decodeOrThrow(def.body, ctx.request.body ?? {}, 'body');
      }
      const input = new Input(ctx, api.app, principal, params, query, body);
      const key = ctx.method === 'POST' ? ctx.get('Idempotency-Key') : '';
      const result =
        key === ''
          ? await respond(def, api.app, input)
          : await idempotent(ctx, api.idempotency, principal, key, (idempotency) => {
              input.idempotency = idempotency;
              return respond(def, api.app, input);
            });
      ctx.status = result.status;
      if (result.body instanceof JsonText) {
        ctx.type = 'application/json';
        ctx.body = result.body.text;
      } else ctx.body = result.body;
    });
  }
};
