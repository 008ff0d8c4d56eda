import type { EventMetadata, Position } from '@support/eventstore';
import type { CollectionSpec, Doc } from '@support/readstore';

/** An event as the log holds it; a projection's event type narrows it. */
export interface LoggedEvent {
  readonly type: string;
  readonly data: unknown;
}

/** An event as a projection sees it: typed payload plus where and when it happened. */
export type ProjectedEvent<E extends LoggedEvent = LoggedEvent> = E & { metadata: EventMetadata; position: Position; stream: string; revision: number };

/**
 * One read model, its documents typed `D` (the resource mappers read them without casts). `apply` is pure: the same document and event always give the same result,
 * so a rebuild from the log reproduces every document.
 */
export interface Projection<D extends Doc = Doc, E extends LoggedEvent = LoggedEvent> {
  readonly collection: CollectionSpec;
  readonly handles: readonly E['type'][];
  /** Ids of the documents the event changes. */
  targets(event: ProjectedEvent<E>): string[];
  /** The new document, or null to remove it. */
  apply(doc: D | null, event: ProjectedEvent<E>): D | null;
}

/** Any read model's projection, whatever its documents and events: what a projector runs. */
export type AnyProjection = Projection<Doc, LoggedEvent>;

/** The aggregate id from the stream name `<aggregate>-<id>`. */
export const aggregateId = (event: { stream: string }): string => event.stream.slice(event.stream.indexOf('-') + 1);
