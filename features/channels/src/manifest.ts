import type { Feature } from '@support/application';
import { ChannelEvent } from './events';
import { CHANNEL_IMPORT } from './import';
import { channelsProjection } from './projection';

/** What the processes compose (@support/catalog): the feature's events, read models and import kinds. */
export const channelsFeature: Feature = { events: ChannelEvent, projections: [channelsProjection], imports: [CHANNEL_IMPORT] };
