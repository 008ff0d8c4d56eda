import type * as t from 'io-ts';
import type { Upcaster } from '@support/eventstore';
import type { AnyProjection } from '@support/projections';
import type { ReadStore } from '@support/readstore';
import type { AnyImportSpec } from './commands/import-kinds';

/** What one feature folder (features/*) gives the processes to compose. */
export interface Feature {
  /** Its events' codec: a union, or the one event's codec of a feature with one. */
  readonly events: t.Mixed;
  readonly projections: readonly AnyProjection[];
  /** The kinds of record an import file may hold of it. */
  readonly imports: readonly AnyImportSpec[];
  /** Its events' older versions, brought to the current ones on every read. */
  readonly upcasters?: readonly Upcaster[];
}

/** Finds the workspace's connected channel of a kind (`api`, `email`…), so its conversation count follows. */
export type ChannelResolver = (workspaceId: string, channel: string) => Promise<string | null>;

/** What the features put together (@support/catalog): every read model's projection, event type and import kind. */
export interface Catalog {
  readonly projections: readonly AnyProjection[];
  readonly eventTypes: readonly string[];
  readonly imports: readonly AnyImportSpec[];
  /** Old event versions turned into current ones on every read (none yet: docs/operating/upgrading.md). */
  readonly upcasters?: readonly Upcaster[];
  /** How conversations find the channel they start on (the channels feature's read model). */
  channelOf(reads: ReadStore): ChannelResolver;
}
