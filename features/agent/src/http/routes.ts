import type * as t from 'io-ts';
import type { Application, Principal } from '@support/application';
import type { Plan } from '@support/domain';
import { customerInput } from '@support/customers';
import {
  arrayOf,
  bool,
  commandContext,
  freeItem,
  type Idempotency,
  int,
  linksTo,
  literal,
  nullable,
  resourceId,
  route,
  str,
  struct,
  withSchema,
} from '@support/http';
import { AGENT_DEFAULTS } from '../config/decider';
import { agentsOf } from '../config/read-model';
import { type Agent, agentOf } from '../service/agent';
import { AgentPatchBody, AgentResource, AgentResponseResource, KnowledgeResultResource, toAgent } from './resource';

const TOP_K_DEFAULT = 8;
/** The scope that reads internal articles directly (GET /knowledge_base/articles), and so sees them in search too. */
const STAFF_SEARCH_SCOPE = 'knowledge_base:read';

/** A conversation id in a body or a tool's arguments: a malformed one is a 400 naming the form, as in a path, not a 404. */
export const CONVERSATION_ID = resourceId('conv_', 'conversation');

/** Spec 4.3: POST /agent/messages; also the MCP `send_message` tool's arguments. */
export const turnBody = struct(
  { message: str({ min: 1, max: 10_000, notBlank: true }) },
  {
    conversation_id: withSchema(CONVERSATION_ID, { description: 'An api conversation to continue; omitted: a new one' }),
    customer: customerInput,
    attachments: arrayOf(freeItem('Shape not specified; kept as given (any JSON value but an array)'), { max: 20 }),
  },
  {
    title: 'agent_message',
    example: { message: 'How long does a refund take to reach my card?', customer: { email: 'ada.moreau@example.com', name: 'Ada Moreau' } },
  },
);
/** Spec 4.3: POST /agent/search; also the MCP `search_knowledge` tool's arguments. */
export const searchBody = struct(
  { query: str({ min: 1, max: 1000 }) },
  { top_k: int({ min: 1, max: 20, description: `Default ${TOP_K_DEFAULT}` }) },
  { title: 'agent_search', example: { query: 'refund timing', top_k: 3 } },
);

/** One turn, settled (read-your-writes), as the agent_response resource. */
export const runTurn = async (
  app: Application,
  agent: Agent,
  principal: Principal,
  requestId: string,
  body: t.TypeOf<typeof turnBody>,
  idempotency: Idempotency | null = null,
) => {
  const { position, ...turn } = await agent.turns.turn(commandContext(principal, requestId, idempotency), body);
  await app.settle(position);
  return { object: 'agent_response' as const, ...turn };
};

/**
 * Passages best first; the index has seen every article written before the call. Internal
 * (staff-only) passages only for a key that may read the knowledge base itself
 * (`knowledge_base:read`): a chat client's key (`agent:chat`, `agent:read`) sees what a
 * customer may be told, never an internal article's text.
 */
export const searchKnowledge = async (app: Application, agent: Agent, principal: Principal, body: t.TypeOf<typeof searchBody>) => {
  await agent.knowledge.waitFor(await app.engines.events.head(), app.config.readYourWritesTimeoutMs);
  const customerFacing = !principal.scopes.includes(STAFF_SEARCH_SCOPE);
  const hits = await agent.knowledge.search(principal.workspaceId, body.query, body.top_k ?? TOP_K_DEFAULT, { customerFacing });
  const data = hits.map((h) => ({
    object: 'knowledge_result' as const,
    knowledge_base_id: h.passage.articleId,
    filename: h.passage.title,
    text: h.passage.text,
    type: h.passage.type,
    is_public: h.passage.isPublic,
  }));
  return { object: 'list' as const, data, has_more: false, next_cursor: null };
};

const searchList = struct(
  { object: literal('list'), data: arrayOf(KnowledgeResultResource), has_more: bool(), next_cursor: nullable(str()) },
  {},
  { title: 'knowledge_result_list' },
);

export const agentRoutes = [
  route({
    method: 'get',
    path: '/agent',
    tag: 'agent',
    summary: "The workspace's AI agent configuration (a disabled default until first set)",
    scope: 'agent:read',
    response: { status: 200, codec: AgentResource, description: 'The agent' },
    handler: async ({ app, principal }) => {
      const doc = await agentsOf(app).get(principal.workspaceId);
      return { body: toAgent(doc?.settings ?? AGENT_DEFAULTS) };
    },
  }),
  route({
    method: 'patch',
    path: '/agent',
    tag: 'agent',
    scope: 'agent:write',
    summary: 'Change only the given fields (creates the configuration if none); deployed_channels and escalation merge key by key',
    body: AgentPatchBody,
    response: { status: 200, codec: AgentResource, description: 'The agent' },
    handler: async ({ app, principal, body, requestId, idempotency }) => {
      const { position, settings } = await agentOf(app).configs.configure(
        commandContext(principal, requestId, idempotency),
        principal.workspace.plan as Plan,
        body,
      );
      await app.settle(position);
      return { body: toAgent(settings) };
    },
  }),
  route({
    method: 'post',
    path: '/agent/messages',
    tag: 'agent',
    scope: 'agent:chat',
    summary: 'One synchronous agent turn: starts or continues an api conversation; credits are charged only for a reply',
    body: turnBody,
    response: { status: 200, codec: AgentResponseResource, description: 'The agent response' },
    links: linksTo(['GET /conversations/:id', 'PATCH /conversations/:id', 'GET /conversations/:id/messages', 'POST /conversations/:id/messages'], {
      id: '$response.body#/conversation_id',
    }),
    handler: async ({ app, principal, body, requestId, idempotency }) => ({ body: await runTurn(app, agentOf(app), principal, requestId, body, idempotency) }),
  }),
  route({
    method: 'post',
    path: '/agent/search',
    tag: 'agent',
    scope: 'agent:read',
    summary: 'Search the published, AI-enabled knowledge base: passages, best first (unpaginated); internal articles only for keys with knowledge_base:read',
    body: searchBody,
    response: { status: 200, codec: searchList, description: 'Matching passages' },
    handler: async ({ app, principal, body }) => ({ body: await searchKnowledge(app, agentOf(app), principal, body) }),
  }),
];
