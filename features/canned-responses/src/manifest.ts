import type { Feature } from '@support/application';
import { CannedResponseEvent } from './events';
import { CANNED_RESPONSE_IMPORT } from './import';
import { cannedResponsesProjection } from './projection';

/** What the processes compose (@support/catalog): the feature's events, read models and import kinds. */
export const cannedResponsesFeature: Feature = { events: CannedResponseEvent, projections: [cannedResponsesProjection], imports: [CANNED_RESPONSE_IMPORT] };
