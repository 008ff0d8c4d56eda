import { type Application, perApplication } from '@support/application';
import { AGENTS, type AgentDocument } from './projection';

/** The agents' configurations, by workspace id (a workspace sees only its own). */
export const agentsOf = perApplication((app: Application) => app.engines.reads.collection<AgentDocument>(AGENTS));
