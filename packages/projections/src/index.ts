import { apiKeysProjection } from './apikeys';
import { conversationsProjection } from './conversations';
import { customersProjection } from './customers';
import { messagesProjection } from './messages';
import { AnyProjection } from './projection';
import { workspacesProjection } from './workspaces';

export * from './projection';
export * from './projector';
export * from './projector-options';
export * from './checkpoint-watch';
export * from './set-aside';
export { SET_ASIDE_AFTER } from './isolate';
export * from './partition';
export { WORKSPACES } from './workspaces';
export { API_KEYS } from './apikeys';
export { CUSTOMERS } from './customers';
export type { CustomerDocument } from './customers';
export { conversationsProjection } from './conversations';
export { customersProjection } from './customers';
export { messagesProjection } from './messages';
export { CONVERSATIONS } from './conversations';
export { MESSAGES } from './messages';

/** The read models not yet in a feature folder (features/*); @support/catalog adds the features' to them. */
export const BUILT_IN_PROJECTIONS: readonly AnyProjection[] = [
  workspacesProjection,
  apiKeysProjection,
  customersProjection,
  conversationsProjection,
  messagesProjection,
];
export type { ConversationDocument } from './conversations';
export type { MessageDocument } from './messages';
