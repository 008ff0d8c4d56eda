import type Router from '@koa/router';
import type {} from 'koa-bodyparser';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiError, requirePrincipal, type Api } from '@support/http';
import { mcpServer } from './tools';

/**
 * POST /mcp: a Model Context Protocol server over Streamable HTTP, stateless (a server and a
 * transport per request; neither can be reused). Behind the same bearer auth as every route
 * (any valid key; each tool checks its own scope) and the chat rate tier (the rate-limit
 * middleware). Koa's body parser has read the body already, so the parsed body is handed over.
 */
export const mountMcp = (router: Router, api: Api) => {
  router.post('/mcp', async (ctx) => {
    const principal = requirePrincipal(ctx, { scope: null });
    // One message a request: the chat rate limit counts requests, and a JSON-RPC batch of 100
    // tool calls would be 100 turns for one (MCP's 2025-06-18 revision dropped batches).
    const body: unknown = ctx.request.body;
    if (Array.isArray(body) && body.length > 1)
      throw new ApiError(400, `JSON-RPC batches are not accepted on /mcp (this one holds ${body.length} messages): send one message a request`);
    const server = mcpServer(api, principal, ctx.state.requestId as string);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  });
};
