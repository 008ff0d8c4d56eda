import { type ChannelResolver, perApplication, Scoped } from '@support/application';
import type { ReadStore } from '@support/readstore';
import { CHANNELS, type ChannelDocument } from './projection';

/** The read model over an application's read store. */
export const channelsOf = perApplication((app) => new Scoped(app.engines.reads.collection<ChannelDocument>(CHANNELS)));

/** A conversation on a kind of channel belongs to the workspace's newest channel of that kind (what the catalog gives conversations). */
export const newestChannelOf = (reads: ReadStore): ChannelResolver => {
  const channels = new Scoped(reads.collection<ChannelDocument>(CHANNELS));
  return async (workspaceId, type) => (await channels.find(workspaceId, { where: { type }, limit: 1 })).items[0]?.id ?? null;
};
