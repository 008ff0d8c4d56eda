import type { RouteDef } from '@support/http';
import { agentRoutes } from '@support/agent/routes';
import { conversationRoutes, messageRoutes } from '@support/conversations/routes';
import { customerRoutes } from '@support/customers/routes';
import { metaRoutes } from './meta';
import { tagRoutes } from '@support/tags/routes';
import { cannedResponseRoutes } from '@support/canned-responses/routes';
import { channelRoutes } from '@support/channels/routes';
import { knowledgeBaseRoutes } from '@support/knowledge-base/routes';
import { ticketRoutes } from '@support/tickets/routes';
import { webhookRoutes } from '@support/webhook-endpoints/routes';

/** Every authenticated endpoint, in the order the OpenAPI document lists them. */
export const ROUTES: readonly RouteDef[] = [
  ...metaRoutes,
  ...agentRoutes,
  ...customerRoutes,
  ...tagRoutes,
  ...ticketRoutes,
  ...knowledgeBaseRoutes,
  ...cannedResponseRoutes,
  ...channelRoutes,
  ...conversationRoutes,
  ...messageRoutes,
  ...webhookRoutes,
] as RouteDef[];

/** The tags of the API reference, in its order: what each group of operations is for. */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'meta', description: 'The API itself and the key in use (`GET /me`: its workspace, environment and scopes).' },
  {
    name: 'agent',
    description: "The workspace's AI agent: its settings, a customer's turn answered from the public help centre, knowledge search, and the MCP server.",
  },
  { name: 'customers', description: 'People who contact the workspace, found again by email, phone or external_id (one customer per identity).' },
  { name: 'tags', description: 'Labels for customers and conversations, unique by name in a workspace.' },
  { name: 'tickets', description: "Tickets with SLA targets (read-only: entered by the operator's import; the SLA monitor sets `sla_status`)." },
  { name: 'knowledge_base', description: "Help-centre articles the agent answers from (read-only: entered by the operator's import)." },
  { name: 'canned_responses', description: "Saved replies for human agents (read-only: entered by the operator's import)." },
  { name: 'channels', description: "The channels conversations arrive on (read-only: entered by the operator's import)." },
  {
    name: 'conversations',
    description:
      'Conversations with a customer on a channel (status, priority, tags, assignee), and their messages from the customer, a human agent or the AI agent.',
  },
  { name: 'webhooks', description: 'Signed HTTPS notifications of events, their deliveries and retries, and the /events log.' },
  {
    name: 'webhook_events',
    description:
      'What your endpoint receives: one signed POST per event and endpoint, `{id, type, created_at, data}`, with `data` the resource right after the event.',
  },
];
