import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Application, Principal } from '@support/application';
import { CHANNELS, type Scope } from '@support/domain';
import { describeErrors, int, listBody, oneOf, str, struct, toApiError, toConversation, toMessage } from '@support/http';
import { runTurn, searchBody, searchKnowledge, turnBody } from '../routes/agent';
import { API_VERSION } from '../routes/meta';

const listArgs = struct(
  {},
  {
    limit: int({ min: 1, max: 100 }),
    starting_after: str({ min: 1, max: 128 }),
    status: oneOf(['open', 'closed'] as const),
    channel: oneOf(CHANNELS),
    customer_id: str({ max: 100 }),
  },
  { title: 'list_conversations' },
);
const getArgs = struct({ conversation_id: str({ min: 1, max: 100 }) }, {}, { title: 'get_conversation' });

const text = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});
const refusal = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

/**
 * The MCP server of one request (stateless: a new server per request, so concurrent requests
 * never share JSON-RPC ids). Every tool checks the key's scope itself, refusing as an MCP tool
 * error that names the missing scope, and validates its arguments with the same io-ts codecs as
 * the REST routes (zod only declares the shape to MCP clients, as the SDK requires).
 */
export const mcpServer = (app: Application, principal: Principal, requestId: string): McpServer => {
  const server = new McpServer({ name: 'support-platform', version: API_VERSION });

  const tool = <C extends t.Any>(
    name: string,
    description: string,
    scope: Scope,
    shape: z.ZodRawShape,
    codec: C,
    run: (args: t.TypeOf<C>) => Promise<unknown>,
  ) => {
    server.registerTool(name, { description: `${description} Needs the scope ${scope}.`, inputSchema: shape }, async (raw: unknown) => {
      if (!principal.scopes.includes(scope)) return refusal(`This key lacks the scope ${scope}, which the tool ${name} needs.`);
      const decoded = codec.decode(raw ?? {});
      if (E.isLeft(decoded)) return refusal(describeErrors(decoded.left, 'arguments').message);
      try {
        return text(await run(decoded.right));
      } catch (err) {
        const known = toApiError(err);
        if (!known) throw err;
        return refusal(`${known.message} (${known.code ?? known.status})`);
      }
    });
  };

  const customer = z.object({ email: z.string(), phone: z.string(), name: z.string(), external_id: z.string() }).partial();
  tool(
    'send_message',
    'One synchronous turn of the AI agent, as POST /agent/messages: starts or continues an api conversation; credits are charged only for a reply.',
    'agent:chat',
    { message: z.string(), conversation_id: z.string().optional(), customer: customer.optional() },
    turnBody,
    (args) => runTurn(app, principal, requestId, args),
  );
  tool(
    'search_knowledge',
    'Searches the published, AI-enabled knowledge base: passages, best first.',
    'agent:read',
    { query: z.string(), top_k: z.number().int().optional() },
    searchBody,
    (args) => searchKnowledge(app, principal.workspaceId, args),
  );
  tool(
    'get_conversation',
    'A conversation and its latest messages (newest first, up to 50).',
    'conversations:read',
    { conversation_id: z.string() },
    getArgs,
    async ({ conversation_id }) => {
      const doc = await app.reads.conversations.require(principal.workspaceId, conversation_id, 'conversation');
      const messages = await app.reads.messages.find(principal.workspaceId, { where: { conversation_id }, limit: 50 });
      return { ...toConversation(doc), messages: messages.items.map(toMessage) };
    },
  );
  tool(
    'list_conversations',
    'Conversations, newest first, as GET /conversations.',
    'conversations:read',
    {
      limit: z.number().int().optional(),
      starting_after: z.string().optional(),
      status: z.enum(['open', 'closed']).optional(),
      channel: z.enum(CHANNELS).optional(),
      customer_id: z.string().optional(),
    },
    listArgs,
    async ({ limit, starting_after, ...where }) => {
      const page = await app.reads.conversations.find(principal.workspaceId, { where: where, startingAfter: starting_after, limit: limit ?? 20 });
      return listBody(page.items.map(toConversation), page.hasMore);
    },
  );
  return server;
};
