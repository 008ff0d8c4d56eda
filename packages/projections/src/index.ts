import { apiKeysProjection } from './apikeys';
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

/** The read models not yet in a feature folder (features/*); @support/catalog adds the features' to them. */
export const BUILT_IN_PROJECTIONS: readonly AnyProjection[] = [workspacesProjection, apiKeysProjection];
