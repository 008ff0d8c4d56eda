import * as t from 'io-ts';
import type { Application, Principal } from '@support/application';
import type { Scope } from '@support/domain';
import type { Struct } from './codec/struct';
import type { Described } from './codec/schema';

export type Method = 'get' | 'post' | 'patch' | 'delete';

type AnyStruct = Struct<any, any>;
type Decoded<C> = C extends t.Any ? t.TypeOf<C> : Record<string, never>;

export interface HandlerInput<P, Q, B> {
  app: Application;
  principal: Principal;
  params: P;
  query: Q;
  body: B;
  requestId: string;
  /** The service's own base URL as the client reached it, e.g. https://api.example.com/v1. */
  baseUrl: string;
  /** Set on a POST with an Idempotency-Key (mount.ts): what its commands record and derive ids from. */
  idempotency: { key: string; firstSeenMs: number } | null;
}

export interface HandlerResult {
  status?: number;
  body: unknown;
}

/**
 * One endpoint, declared once: the router validates with these codecs and the OpenAPI
 * document is generated from the same declarations.
 */
export interface RouteDef<P extends AnyStruct | undefined = any, Q extends AnyStruct | undefined = any, B extends AnyStruct | undefined = any> {
  method: Method;
  /** Koa-style path relative to /v1, e.g. /customers/:id. */
  path: string;
  summary: string;
  tag: string;
  /** null: any valid key. */
  scope: Scope | null;
  params?: P;
  query?: Q;
  body?: B;
  /** A body is optional on this route (e.g. POST /conversations). */
  bodyOptional?: boolean;
  response: { status: number; codec: t.Any & Described; description: string };
  /**
   * OpenAPI links from the success response to the operations its values feed (a created id into
   * its get, patch and delete; a list's first item into its get). Generated clients and the
   * stateful phase of the fuzz (scripts/schemathesis.sh) follow them.
   */
  links?: Readonly<Record<string, RouteLink>>;
  handler(input: HandlerInput<Decoded<P>, Decoded<Q>, Decoded<B>>): Promise<HandlerResult>;
}

/** One OpenAPI link (https://spec.openapis.org/oas/v3.1.0#link-object). */
export interface RouteLink {
  /** The target, as its method and Koa-style path: `GET /customers/:id`. */
  operation: string;
  /** The target's path or query parameters, each a runtime expression such as `$response.body#/id`. */
  parameters: Readonly<Record<string, string>>;
  description?: string;
}

/**
 * Links named after their targets' operationIds (`customers.get`), each filling the same parameters, e.g.
 * `linksTo(['GET /customers/:id', 'PATCH /customers/:id'], { id: '$response.body#/id' })`.
 */
export const linksTo = (operations: readonly string[], parameters: Readonly<Record<string, string>>): Record<string, RouteLink> =>
  Object.fromEntries(
    operations.map((operation) => {
      const [method, path] = operation.split(' ');
      return [operationIdOf(method.toLowerCase(), path), { operation, parameters }];
    }),
  );

/** The last segment of these paths is a verb, not a collection: `POST /webhook_endpoints/:id/test`. */
const ACTIONS = new Set(['search', 'test', 'retry', 'roll_secret']);
/** One of a kind (no id, no list): `GET /me`, `PATCH /agent`. */
const SINGLETONS = new Set(['me', 'agent']);
const ITEM_ACTIONS: Record<string, string> = { get: 'get', patch: 'update', put: 'replace', delete: 'delete', post: 'create' };
const camel = (segment: string) => segment.replace(/_(\w)/g, (_, ch: string) => ch.toUpperCase());

/**
 * The document's operationId for a method and Koa-style path, read as resource then action
 * (what generated clients name their methods): `POST /customers` is customers.create,
 * `GET /customers/:id` customers.get, `GET /conversations/:id/messages` conversations.messages.list,
 * `POST /webhook_endpoints/:id/roll_secret` webhookEndpoints.rollSecret, `GET /me` me.get.
 */
export const operationIdOf = (method: string, path: string): string => {
  const segments = path.split('/').filter(Boolean);
  const names = segments.filter((s) => !s.startsWith(':')).map(camel);
  const last = segments.at(-1);
  if (last === undefined) return 'root.get';
  if (ACTIONS.has(last)) return names.join('.');
  if (last.startsWith(':')) return [...names, ITEM_ACTIONS[method] ?? method].join('.');
  if (segments.length === 1 && SINGLETONS.has(last)) return [...names, method === 'get' ? 'get' : 'update'].join('.');
  return [...names, method === 'get' ? 'list' : 'create'].join('.');
};

/** Keeps the codec types flowing into the handler's parameters. */
export const route = <P extends AnyStruct | undefined = undefined, Q extends AnyStruct | undefined = undefined, B extends AnyStruct | undefined = undefined>(
  def: RouteDef<P, Q, B>,
): RouteDef<P, Q, B> => def;
