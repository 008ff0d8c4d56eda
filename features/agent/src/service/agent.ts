import { join } from 'node:path';
import { workspacesOf } from '@support/workspaces';
import { Application, execute, perApplication, type Worker } from '@support/application';
import { conversationsOf } from '@support/conversations';
import { customersOf } from '@support/customers';
import { articleAggregate, articleStream } from '@support/knowledge-base';
import { GroundedResponder } from '../responders/grounded';
import { LlmResponder } from '../responders/llm';
import type { Responder } from '../responders/types';
import { AgentConfigs } from './configs';
import { KnowledgeFeed } from './knowledge-feed';
import { agentMetrics } from './metrics';
import { AgentTurns } from './turns';

/**
 * The AI agent, built only by the process that answers agent calls (the API): its settings,
 * its knowledge index (a worker, so it is rebuilt from the log before the first request is
 * served and shows in /healthz) and its turns.
 */
export class Agent implements Worker {
  readonly configs: AgentConfigs;
  readonly knowledge: KnowledgeFeed;
  readonly turns: AgentTurns;

  /** `responder`: the answer writer; default: the LLM when configured, else the grounded responder. */
  constructor(app: Application, options: { responder?: Responder } = {}) {
    const { config, deps, log } = app;
    this.configs = new AgentConfigs(deps);
    const system = { workspaceId: null, actor: 'system', requestId: null };
    this.knowledge = new KnowledgeFeed(
      deps.events,
      async (workspaceId, id, indexed) => {
        await execute(deps, { ...system, workspaceId }, articleAggregate, articleStream(id), { type: 'mark_indexed', indexed });
      },
      log.child({ component: 'knowledge' }),
      config.agentReranker,
      join(config.dataDir, 'vectors'),
    );
    const grounded = new GroundedResponder();
    const llm = config.llm;
    const responder = options.responder ?? (llm ? new LlmResponder({ ...llm, fallback: grounded, log: log.child({ component: 'llm' }) }) : grounded);
    this.turns = new AgentTurns(deps, {
      workspaces: workspacesOf(app).commands,
      configs: this.configs,
      conversations: conversationsOf(app),
      customers: customersOf(app).commands,
      knowledge: this.knowledge,
      responder,
      clock: app.clock,
      log: log.child({ component: 'agent' }),
      metrics: agentMetrics(app.metrics),
    });
  }

  start(): Promise<void> {
    return this.knowledge.start();
  }

  stop(): Promise<void> {
    return this.knowledge.stop();
  }

  health() {
    return this.knowledge.health();
  }
}

/** The application's agent, built once, by the first route or process that needs it (the API's). */
export const agentOf = perApplication((app) => new Agent(app));
