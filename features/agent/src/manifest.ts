import type { Feature } from '@support/application';
import { AgentEvent } from './config/events';
import { agentsProjection } from './config/projection';

/**
 * What every process composes (@support/catalog): the agent's configuration events and read
 * model. Its own entry point (`@support/agent/manifest`): a projector or relay loads these and
 * nothing of the agent's runtime (index, model, responders, turns).
 */
export const agentFeature: Feature = { events: AgentEvent, projections: [agentsProjection], imports: [] };

export * from './config/events';
export * from './config/decider';
export * from './config/projection';
