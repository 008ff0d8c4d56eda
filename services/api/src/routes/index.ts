import type { RouteDef } from '@support/http';
import { agentRoutes } from '@support/agent/routes';
import { conversationRoutes } from './conversations';
import { customerRoutes } from './customers';
import { messageRoutes } from './messages';
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
