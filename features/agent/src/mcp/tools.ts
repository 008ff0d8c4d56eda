import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Principal } from '@support/application';
import { CHANNELS, conversationsOf, toConversation, toMessage } from '@support/conversations';
import type { Scope } from '@support/domain';
import { API_VERSION, describeErrors, int, listBody, oneOf, pageParams, str, struct, toApiError, type Api, type Idempotency } from '@support/http';
import { agentOf } from '../service/agent';
import { CONVERSATION_ID, runTurn, searchBody, searchKnowledge, turnBody } from '../http/routes';
import { INSTRUCTIONS, TOOLS } from './tool-specs';

const listArgs = struct(
  {},
  {
    limit: int({ min: 1, max: 100 }),
    // As REST: a mistyped cursor is refused, never the first page again.
    starting_after: pageParams.starting_after,
    status: oneOf(['open', 'closed'] as const),
    channel: oneOf(CHANNELS),
    customer_id: str({ max: 100 }),
  },
  { title: 'list_conversations' },
);
const getArgs = struct({ conversation_id: CONVERSATION_ID }, {}, { title: 'get_conversation' });

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
export const mcpServer = ({ app }: Api, principal: Principal, requestId: string, idempotency: Idempotency | null = null): McpServer => {
  const agent = agentOf(app);
  const server = new McpServer({ name: 'support-platform', version: API_VERSION }, { instructions: INSTRUCTIONS });

  const tool = <C extends t.Any>(
    name: string,
    spec: { title: string; description: string; readOnly: boolean; input: z.ZodRawShape; output: z.ZodRawShape },
    scope: Scope,
    codec: C,
    run: (args: t.TypeOf<C>) => Promise<unknown>,
  ) => {
    const config = {
      title: spec.title,
      description: `${spec.description} Needs the scope ${scope}.`,
      inputSchema: spec.input,
      outputSchema: spec.output,
      annotations: { title: spec.title, readOnlyHint: spec.readOnly, destructiveHint: false, idempotentHint: spec.readOnly, openWorldHint: false },
    };
    server.registerTool(name, config, async (raw: unknown) => {
      if (!principal.scopes.includes(scope)) return refusal(`This key lacks the scope ${scope}, which the tool ${name} needs.`);
      // PATCH /agent {"deployed_channels": {"mcp": false}} switches the MCP server off for the workspace.
      if (!(await agent.configs.current(principal.workspaceId)).deployed_channels.mcp)
        return refusal('The MCP server is switched off for this workspace; turn it on with PATCH /agent {"deployed_channels": {"mcp": true}}.');
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

  tool('send_message', TOOLS.send_message, 'agent:chat', turnBody, (args) => runTurn(app, agent, principal, requestId, args, idempotency));
  tool('search_knowledge', TOOLS.search_knowledge, 'agent:read', searchBody, (args) => searchKnowledge(app, agent, principal, args));
  tool('get_conversation', TOOLS.get_conversation, 'conversations:read', getArgs, async ({ conversation_id }) => {
    const doc = await conversationsOf(app).reads.require(principal.workspaceId, conversation_id, 'conversation');
    const messages = await conversationsOf(app).messages.find(principal.workspaceId, { where: { conversation_id }, limit: 50 });
    return { ...toConversation(doc), messages: messages.items.map(toMessage) };
  });
  tool('list_conversations', TOOLS.list_conversations, 'conversations:read', listArgs, async ({ limit, starting_after, ...where }) => {
    const page = await conversationsOf(app).reads.find(principal.workspaceId, { where: where, startingAfter: starting_after, limit: limit ?? 20 });
    return listBody(page.items.map(toConversation), page.hasMore);
  });
  return server;
};
