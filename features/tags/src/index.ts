// The tags feature, as every process may load it: its events, decider, commands and read model.
// The API's part (resource and routes) is `@support/tags/routes`, so the projector, relay and
// dispatcher load no HTTP code of it.
import { tagsProjection } from './projection';
import { TagEvent } from './events';

export * from './events';
export * from './decider';
export * from './commands';
export * from './projection';

/** What the processes compose: the feature's events and read models. */
export const tagsFeature = { events: TagEvent, projections: [tagsProjection] } as const;
