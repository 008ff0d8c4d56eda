import * as t from 'io-ts';
import { AnyImportSpec, Catalog, type Feature } from '@support/application';
import { cannedResponsesFeature } from '@support/canned-responses';
import { channelsFeature, newestChannelOf } from '@support/channels';
import { conversationsFeature } from '@support/conversations';
import { customersFeature } from '@support/customers';
import { CoreEvent, eventTypesOf } from '@support/domain';
import type { AnyProjection } from '@support/projections';
import { knowledgeBaseFeature } from '@support/knowledge-base';
import { tagsFeature } from '@support/tags';
import { ticketsFeature } from '@support/tickets';
import { webhookEndpointsFeature } from '@support/webhook-endpoints';
import { workspacesFeature } from '@support/workspaces';
import { agentFeature } from '@support/agent/manifest';

/**
 * The product's features put together, for the processes to compose: every event the platform
 * records, every read model and every kind of import. Every feature folder (features/*) joins
 * here; the core adds only its unique claims' events (@support/domain's CoreEvent).
 */
const FEATURES = [
  workspacesFeature,
  customersFeature,
  conversationsFeature,
  tagsFeature,
  ticketsFeature,
  knowledgeBaseFeature,
  cannedResponsesFeature,
  channelsFeature,
  webhookEndpointsFeature,
  agentFeature,
] as const;

/** A feature's event codecs: a union's members, or the one codec. */
const eventCodecsOf = (codec: t.Mixed): t.Mixed[] => (codec instanceof t.UnionType ? (codec.types as t.Mixed[]) : [codec]);

/** Every event the platform records: the schema an auditor replays against. */
export const AnyEvent = t.union([...CoreEvent.types, ...FEATURES.flatMap((f) => eventCodecsOf(f.events))] as unknown as [t.Mixed, t.Mixed, ...t.Mixed[]]);

/** Every event type: what a subscription to a shared log (EventStoreDB's `$all`) asks for. */
export const EVENT_TYPES: readonly string[] = [...new Set(eventTypesOf(AnyEvent))].sort();

/** `items` in the order of `listed` by `name` (those not listed last, as given). */
const inOrder = <A>(items: readonly A[], name: (a: A) => string, listed: readonly string[]): A[] => {
  const place = (a: A) => (listed.includes(name(a)) ? listed.indexOf(name(a)) : listed.length);
  return items
    .map((a, i) => ({ a, i }))
    .sort((x, y) => place(x.a) - place(y.a) || x.i - y.i)
    .map(({ a }) => a);
};

/**
 * Every read model's projection, in the order they were listed and partitioned in before features
 * had folders of their own: a moved feature keeps its place (admin output, projector groups).
 */
export const ALL_PROJECTIONS: readonly AnyProjection[] = inOrder(
  FEATURES.flatMap((f) => f.projections),
  (p) => p.collection.name,
  [
    'workspaces',
    'api_keys',
    'customers',
    'tags',
    'tickets',
    'knowledge_base_articles',
    'canned_responses',
    'channels',
    'conversations',
    'messages',
    'webhook_endpoints',
    'agents',
  ],
);

/** Every kind an import file may hold, in the order the operator interface lists them. */
export const ALL_IMPORTS: readonly AnyImportSpec[] = inOrder(
  FEATURES.flatMap((f) => f.imports),
  (k) => k.key,
  ['tickets', 'knowledge_base_articles', 'canned_responses', 'channels'],
);

export const CATALOG: Catalog = {
  projections: ALL_PROJECTIONS,
  eventTypes: EVENT_TYPES,
  imports: ALL_IMPORTS,
  upcasters: FEATURES.flatMap((f: Feature) => f.upcasters ?? []),
  channelOf: newestChannelOf,
};
