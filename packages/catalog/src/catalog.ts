import * as t from 'io-ts';
import type { Catalog } from '@support/application';
import { AnyDomainEvent, eventTypesOf } from '@support/domain';
import { AnyProjection, BUILT_IN_PROJECTIONS } from '@support/projections';
import { tagsFeature } from '@support/tags';

/**
 * The product's features put together, for the processes to compose: every event the platform
 * records and every read model. A feature in a folder of its own (features/*) joins here;
 * the rest are still in @support/domain and @support/projections.
 */
const FEATURES = [tagsFeature] as const;

/** Every event the platform records: the schema an auditor replays against. */
export const AnyEvent = t.union([...AnyDomainEvent.types, ...FEATURES.flatMap((f) => f.events.types)] as unknown as [t.Mixed, t.Mixed, ...t.Mixed[]]);

/** Every event type: what a subscription to a shared log (EventStoreDB's `$all`) asks for. */
export const EVENT_TYPES: readonly string[] = [...new Set(eventTypesOf(AnyEvent))].sort();

/**
 * The order read models are listed and partitioned in, as it was before features had folders of
 * their own: a moved feature keeps its place (admin output, projector groups). New ones go last.
 */
const LISTED = [
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
];
const place = (p: AnyProjection) => (LISTED.includes(p.collection.name) ? LISTED.indexOf(p.collection.name) : LISTED.length);

/** Every read model's projection. */
export const ALL_PROJECTIONS: readonly AnyProjection[] = [...BUILT_IN_PROJECTIONS, ...FEATURES.flatMap((f) => f.projections)]
  .map((p, i) => ({ p, i }))
  .sort((a, b) => place(a.p) - place(b.p) || a.i - b.i)
  .map(({ p }) => p);

export const CATALOG: Catalog = { projections: ALL_PROJECTIONS, eventTypes: EVENT_TYPES };
