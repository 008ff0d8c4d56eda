import type { Feature } from '@support/application';
import { TagEvent } from './events';
import { tagsProjection } from './projection';

/** What the processes compose (@support/catalog): the feature's events and read models. */
export const tagsFeature: Feature = { events: TagEvent, projections: [tagsProjection], imports: [] };
