import type { Feature } from '@support/application';
import { CustomerEvent } from './events';
import { customersProjection } from './projection';

/** What the processes compose (@support/catalog): the feature's events and read model. */
export const customersFeature: Feature = { events: CustomerEvent, projections: [customersProjection], imports: [] };
