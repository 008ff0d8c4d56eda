import type Router from '@koa/router';
import type {} from 'koa-bodyparser';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Principal } from '@support/application';
import { ApiError, IDEMPOTENCY_REFUSALS, type Idempotency, IdempotencyStore, requirePrincipal, type Api } from '@support/http';
import { mcpServer } from './tools';

/**
 * An Idempotency-Key on /mcp keys a `tools/call` (its tool and arguments), not the JSON-RPC
 * message: a client's retry may number it anew, and an MCP client that sets the header on its
 * session sends it with `initialize` and `tools/list` too, which write nothing and ignore it.
 * The answer is not cached; the key seeds the call's ids and goes in its events, so a retried
 * `send_message` finds its turn in the log and answers it again, neither charged nor decided
 * twice (as a REST retry whose answer was lost).
 */
const keyedCall = async (api: Api, principal: Principal, key: string, message: unknown): Promise<Idempotency | null> => {
  const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as { method?: unknown; params?: unknown };
  // Too long is refused on any message, as the document's bound says.
  if (key.length > 255) throw IDEMPOTENCY_REFUSALS.tooLong();
  if (key === '' || method !== 'tools/call') return null;
  const begun = await api.idempotency.begin(principal.workspaceId, key, IdempotencyStore.fingerprint('POST', '/mcp', { method, params }));
  // `replay` needs a completed answer, which /mcp never stores: a key once used on a REST route is a mismatch here.
  if (begun.kind !== 'proceed') throw IDEMPOTENCY_REFUSALS.mismatch();
  return { key: begun.key, firstSeenMs: begun.firstSeenMs };
};

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
    const idempotency = await keyedCall(api, principal, ctx.get('Idempotency-Key'), Array.isArray(body) ? body[0] : body);
    const server = mcpServer(api, principal, ctx.state.requestId as string, idempotency);
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
