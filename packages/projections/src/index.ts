import { apiKeysProjection } from './apikeys';
import { conversationsProjection } from './conversations';
import { customersProjection } from './customers';
import { messagesProjection } from './messages';
import { Projection } from './projection';
import { tagsProjection } from './tags';
import { workspacesProjection } from './workspaces';

export * from './projection';
export * from './projector';
export { WORKSPACES } from './workspaces';
export { API_KEYS } from './apikeys';
export { CUSTOMERS } from './customers';
export { TAGS } from './tags';
export { CONVERSATIONS } from './conversations';
export { MESSAGES } from './messages';

export const ALL_PROJECTIONS: readonly Projection[] = [workspacesProjection, apiKeysProjection, customersProjection, tagsProjection, conversationsProjection, messagesProjection];
