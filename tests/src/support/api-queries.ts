import { DELIVERIES, WEBHOOK_ENDPOINTS, WEBHOOK_EVENTS } from '@support/webhook-endpoints';
import { ARTICLES } from '@support/knowledge-base';
import { WORKSPACES } from '@support/workspaces';
import { CONVERSATIONS, MESSAGES } from '@support/conversations';
import { CUSTOMERS } from '@support/customers';
import { TICKETS } from '@support/tickets';
import { CollectionSpec, FindQuery } from '@support/readstore';
import { TAGS } from '@support/tags';
import { CANNED_RESPONSES } from '@support/canned-responses';
import { CHANNELS } from '@support/channels';

export interface ApiQuery {
  spec: CollectionSpec;
  query: FindQuery;
  site: string;
}

const ws = 'ws_01TEST';
const page = { startingAfter: 'x_01ZZZZ', limit: 21 };
/** As Scoped.find sends it: the workspace condition added to the caller's. */
const scoped = (spec: CollectionSpec, site: string, query: FindQuery = {}): ApiQuery => ({
  spec,
  site,
  query: { ...query, where: { ...query.where, workspace_id: ws } },
});
/** A list route: its first page and the next ones, with each of its filters alone. */
const list = (spec: CollectionSpec, site: string, filters: Record<string, string>): ApiQuery[] => [
  scoped(spec, site, { limit: 21 }),
  scoped(spec, site, page),
  ...Object.entries(filters).map(([field, value]) => scoped(spec, `${site} ?${field}=`, { ...page, where: { [field]: value } })),
];

/**
 * Every query shape the API, the dispatcher and the SLA monitor send to the read store
 * (`find` calls; `get`, `update` and `delete` go by id). A new `find` belongs here: the
 * read-store contract checks that a declared index serves each one, on SQLite and MongoDB.
 */
export const API_QUERIES: readonly ApiQuery[] = [
  ...list(CUSTOMERS, 'GET /customers', { status: 'active' }),
  scoped(CUSTOMERS, 'GET /customers ?search=', { ...page, search: { fields: ['name', 'email', 'phone'], text: 'ada' } }),
  scoped(CUSTOMERS, 'GET /customers ?status=&search=', { ...page, where: { status: 'active' }, search: { fields: ['name', 'email', 'phone'], text: 'ada' } }),
  ...list(CONVERSATIONS, 'GET /conversations, MCP list_conversations', {
    status: 'open',
    channel: 'email',
    channel_id: 'ch_1',
    customer_id: 'cus_1',
    priority: 'high',
  }),
  scoped(CONVERSATIONS, 'GET /conversations ?status=&channel=', { ...page, where: { status: 'open', channel: 'email' } }),
  scoped(MESSAGES, 'GET /conversations/:id/messages', { ...page, where: { conversation_id: 'conv_1' } }),
  scoped(MESSAGES, 'agent turn history, MCP get_conversation', { where: { conversation_id: 'conv_1' }, limit: 50 }),
  ...list(TICKETS, 'GET /tickets', { status: 'open', priority: 'high', type: 'question', customer_id: 'cus_1', assignee_id: 'ag_1' }),
  scoped(TICKETS, 'SLA monitor: open tickets', { where: { status: 'open' } }),
  scoped(TICKETS, 'SLA monitor: a reply to a ticket', { where: { source_conversation_id: 'conv_1' } }),
  ...list(ARTICLES, 'GET /knowledge_base/articles', { status: 'published', type: 'faq' }),
  scoped(CANNED_RESPONSES, 'GET /canned_responses', page),
  scoped(CHANNELS, 'GET /channels'),
  scoped(CHANNELS, 'a conversation: its channel of that type', { where: { type: 'email' }, limit: 1 }),
  scoped(TAGS, 'GET /tags', { orderBy: { field: 'name_sort', direction: 'asc' } }),
  scoped(WEBHOOK_ENDPOINTS, 'GET /webhook_endpoints, endpoint count'),
  scoped(WEBHOOK_ENDPOINTS, 'dispatcher intake: enabled endpoints', { where: { status: 'enabled' } }),
  scoped(DELIVERIES, 'GET /webhook_endpoints/:id/deliveries', { ...page, where: { endpoint_id: 'we_1' } }),
  {
    spec: DELIVERIES,
    site: 'dispatcher: due deliveries',
    query: { where: { status: 'pending' }, orderBy: { field: 'next_retry_ms', direction: 'asc' }, limit: 200 },
  },
  scoped(WEBHOOK_EVENTS, 'GET /events', page),
  { spec: WORKSPACES, site: 'SLA monitor: workspaces tracking SLAs', query: { where: { sla_tracking: true } } },
];
