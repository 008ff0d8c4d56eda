// The agent's part of the API: its routes (spec 4.3: /agent, /agent/messages, /agent/search) and
// its MCP server (POST /mcp), with the MCP endpoint's OpenAPI description.
export { agentRoutes, runTurn, searchBody, searchKnowledge, turnBody } from './http/routes';
export * from './http/resource';
export { mountMcp } from './mcp/mount';
export { mcpOpenApiPath, mcpOpenApiSchemas } from './mcp/openapi';
