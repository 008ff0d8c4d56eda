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
  handler(input: HandlerInput<Decoded<P>, Decoded<Q>, Decoded<B>>): Promise<HandlerResult>;
}

/** Keeps the codec types flowing into the handler's parameters. */
export const route = <P extends AnyStruct | undefined = undefined, Q extends AnyStruct | undefined = undefined, B extends AnyStruct | undefined = undefined>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> => def;
