import t from 'tap';
import { resolved } from '../support/openapi';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { enableAgent, importArticles, kbId } from '../support/agent';
import { adminJson } from '../support/service';
import { keyFor, tenant } from '../support/workspace';
import { client as httpClient } from '../support/client';
import { serviceFixture } from '../support/fixture';

// POST /mcp with the MCP SDK's own client over HTTP: tools, scopes, credits, isolation.

const e2e = serviceFixture({ tenant: { name: 'Mcp' } });
const ARTICLE = { id: kbId(21), title: 'Refund policy', content: 'We refund any order within 30 days of delivery, to the original payment method.' };

t.before(async () => {
  await importArticles(e2e.dir, e2e.ws, [ARTICLE]);
  await enableAgent(e2e.ws, { deployed_channels: { mcp: true } });
});

const connect = async (key: string) => {
  const mcp = new Client({ name: 'test-client', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${e2e.svc.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return mcp;
};
const json = (result: any) => JSON.parse(result.content[0].text);

t.test('the tools are listed, described for an LLM client: arguments, bounds, output, read-only hints, instructions', async (t) => {
  const mcp = await connect(e2e.ws.key);
  const { tools } = await mcp.listTools();
  t.strictSame(tools.map((tool) => tool.name).sort(), ['get_conversation', 'list_conversations', 'search_knowledge', 'send_message']);
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  t.match(mcp.getInstructions(), /send_message/, 'the server says which tool to use when');
  for (const tool of tools) {
    t.ok((tool.description ?? '').length > 80, `${tool.name}: a description that says what it is for`);
    t.ok(tool.outputSchema, `${tool.name}: an output schema for its structured content`);
    for (const [arg, schema] of Object.entries(tool.inputSchema.properties ?? {}))
      if (!['status', 'channel'].includes(arg)) t.type((schema as { description?: string }).description, 'string', `${tool.name}.${arg} is described`);
  }
  t.match(byName.search_knowledge.inputSchema.properties?.top_k, { minimum: 1, maximum: 20 }, 'top_k bounds as the service enforces them');
  t.match(byName.list_conversations.inputSchema.properties?.limit, { minimum: 1, maximum: 100 });
  t.strictSame(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]).sort(), [
    ['get_conversation', true],
    ['list_conversations', true],
    ['search_knowledge', true],
    ['send_message', false],
  ]);
  await mcp.close();
});

t.test('deployed_channels.mcp false switches the MCP server off', async (t) => {
  const off = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Mcp off' });
  await importArticles(e2e.dir, off, [{ ...ARTICLE, id: kbId(22) }]);
  await enableAgent(off);
  const mcp = await connect(off.key);
  const refused = await mcp.callTool({ name: 'send_message', arguments: { message: 'How many days do I have for a refund?' } });
  t.equal(refused.isError, true);
  t.match((refused.content as { text: string }[])[0].text, /switched off/);
  t.equal((await mcp.callTool({ name: 'search_knowledge', arguments: { query: 'refund' } })).isError, true);
  t.equal((await off.api.patch('/agent', { deployed_channels: { mcp: true } })).status, 200);
  t.notOk((await mcp.callTool({ name: 'send_message', arguments: { message: 'How many days do I have for a refund?' } })).isError, 'on again');
  await mcp.close();
});

t.test('send_message is one agent turn with the same rules and credits; the conversation tools read it back', async (t) => {
  const mcp = await connect(e2e.ws.key);
  const before = (await adminJson<{ credits: number }>(e2e.dir, 'workspace', 'get', '--id', e2e.ws.workspaceId)).credits;
  const sent = await mcp.callTool({ name: 'send_message', arguments: { message: 'How many days do I have for a refund?' } });
  t.notOk(sent.isError);
  const turn = json(sent);
  t.match(turn, { object: 'agent_response', conversation_id: /^conv_/, credits_used: 1, sources: ['Refund policy'], escalated: false });
  t.strictSame(sent.structuredContent, turn, 'also as structured content');
  t.equal((await adminJson<{ credits: number }>(e2e.dir, 'workspace', 'get', '--id', e2e.ws.workspaceId)).credits, before - 1);

  const got = json(await mcp.callTool({ name: 'get_conversation', arguments: { conversation_id: turn.conversation_id } }));
  t.match(got, { object: 'conversation', id: turn.conversation_id, channel: 'api', message_count: 1 + turn.messages.length });
  t.equal(got.messages.length, 1 + turn.messages.length);
  const list = json(await mcp.callTool({ name: 'list_conversations', arguments: { limit: 5 } }));
  t.match(list, { object: 'list' });
  t.equal(list.data[0].id, turn.conversation_id, 'newest first');
  const search = json(await mcp.callTool({ name: 'search_knowledge', arguments: { query: 'refund', top_k: 3 } }));
  t.equal(search.data[0].knowledge_base_id, ARTICLE.id);

  const missing = await mcp.callTool({ name: 'get_conversation', arguments: { conversation_id: 'conv_01J00000000000000000000000' } });
  t.equal(missing.isError, true);
  t.match((missing.content as { text: string }[])[0].text, /not_found/);
  const invalid = await mcp.callTool({ name: 'search_knowledge', arguments: { query: '' } });
  t.equal(invalid.isError, true, 'arguments are validated with the REST codecs');
  const malformed = await mcp.callTool({ name: 'get_conversation', arguments: { conversation_id: 'abc' } });
  t.equal(malformed.isError, true, 'a malformed conversation id is refused, not looked up');
  const badCursor = await mcp.callTool({ name: 'list_conversations', arguments: { starting_after: 'garbage' } });
  t.equal(badCursor.isError, true, 'a mistyped cursor is refused, not the first page again');
  await mcp.close();
});

t.test('a tool the key may not use is refused as a tool error naming the scope', async (t) => {
  const chat = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--access', 'chat_only']);
  const mcp = await connect(chat.key);
  const refused = await mcp.callTool({ name: 'list_conversations', arguments: {} });
  t.equal(refused.isError, true);
  t.match((refused.content as { text: string }[])[0].text, /conversations:read/);
  t.notOk((await mcp.callTool({ name: 'search_knowledge', arguments: { query: 'refund' } })).isError, 'agent:read is allowed');
  await mcp.close();
  const readOnly = await keyFor(e2e.svc.baseUrl, e2e.dir, e2e.ws.workspaceId, ['--access', 'read_only']);
  const ro = await connect(readOnly.key);
  const noChat = await ro.callTool({ name: 'send_message', arguments: { message: 'hi' } });
  t.equal(noChat.isError, true);
  t.match((noChat.content as { text: string }[])[0].text, /agent:chat/);
  await ro.close();
});

t.test('another workspace sees none of this one through MCP', async (t) => {
  const other = await tenant(e2e.svc.baseUrl, e2e.dir, { name: 'Other' });
  await enableAgent(other, { deployed_channels: { mcp: true } });
  const mcp = await connect(other.key);
  t.strictSame(json(await mcp.callTool({ name: 'search_knowledge', arguments: { query: 'refund' } })).data, []);
  t.strictSame(json(await mcp.callTool({ name: 'list_conversations', arguments: {} })).data, []);
  await mcp.close();
});

t.test('the endpoint: bearer auth, chat rate tier, concurrent stateless requests', async (t) => {
  const anon = httpClient(e2e.svc.baseUrl);
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const unauth = await anon.post('/mcp', init, { Accept: 'application/json, text/event-stream' });
  t.equal(unauth.status, 401);
  t.equal(unauth.body.success, false);
  const raw = await e2e.ws.api.post('/mcp', init, { Accept: 'application/json, text/event-stream' });
  t.equal(raw.status, 200);
  t.equal(raw.headers.get('ratelimit-limit'), String(20 * 100), 'chat tier');
  t.match(raw.body, { jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'support-platform' } } });
  // A batch would run many tool calls (agent turns) for one request of the chat rate limit.
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_knowledge', arguments: { query: 'refund' } } });
  const batch = await e2e.ws.api.post('/mcp', [call(1), call(2)], { Accept: 'application/json, text/event-stream' });
  t.equal(batch.status, 400, 'a batch of several messages is refused');
  t.match(batch.body, { success: false, error: { message: /batches are not accepted/ } });
  const one = await e2e.ws.api.post('/mcp', [call(3)], { Accept: 'application/json, text/event-stream' });
  t.equal(one.status, 200, 'a batch of one is one message');
  // Many clients at once: each request gets its own server, so ids never mix.
  const calls = await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      const mcp = await connect(e2e.ws.key);
      const r = json(await mcp.callTool({ name: 'search_knowledge', arguments: { query: 'refund', top_k: (i % 3) + 1 } }));
      await mcp.close();
      return r.data.length;
    }),
  );
  t.strictSame(
    calls,
    calls.map(() => 1),
  );
});

t.test('an Idempotency-Key on a tools/call: a retried send_message is answered from its turn, charged once', async (t) => {
  const headers = (key: string) => ({ Accept: 'application/json, text/event-stream', 'Idempotency-Key': key });
  const send = (id: number, message: string, key: string) =>
    e2e.ws.api.post('/mcp', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'send_message', arguments: { message } } }, headers(key));
  const credits = async () => (await adminJson<{ credits: number }>(e2e.dir, 'workspace', 'get', '--id', e2e.ws.workspaceId)).credits;
  const before = await credits();
  // An MCP client that sets the header on its session sends it with initialize too: ignored there.
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  t.equal((await e2e.ws.api.post('/mcp', init, headers('mcp-retry-1'))).status, 200);
  t.equal((await e2e.ws.api.post('/mcp', init, headers('k'.repeat(256)))).status, 400, 'a key past 255 characters, on any message');
  const first = await send(2, 'How many days do I have for a refund?', 'mcp-retry-1');
  t.equal(first.status, 200);
  const turn = json(first.body.result);
  t.match(turn, { object: 'agent_response', conversation_id: /^conv_/, credits_used: 1 });
  // The retry is numbered anew, as a client's retry may be.
  const retry = await send(3, 'How many days do I have for a refund?', 'mcp-retry-1');
  t.strictSame(json(retry.body.result), turn, 'the same turn, answered again');
  t.equal(await credits(), before - 1, 'charged once');
  const messages = (await e2e.ws.api.get(`/conversations/${turn.conversation_id}/messages`)).body.data;
  t.equal(messages.length, 1 + turn.messages.length, 'one turn in one conversation');
  const other = await send(4, 'Something else entirely?', 'mcp-retry-1');
  t.equal(other.status, 400, 'the key with another call');
  t.match(other.body, { success: false, error: { code: 'validation_error' } });
});

t.test('the document describes /mcp as the SDK answers it: JSON-RPC in, JSON-RPC errors from the transport', async (t) => {
  const doc = (await httpClient(e2e.svc.baseUrl).get('/openapi.json')).body;
  const op = doc.paths['/mcp'].post;
  const accept = op.parameters.find((p: { name: string }) => p.name === 'Accept');
  t.match(accept, { in: 'header', required: true, schema: { pattern: 'application/json.*text/event-stream|text/event-stream.*application/json' } });
  const body = op.requestBody.content['application/json'].schema;
  t.strictSame(body.anyOf, [
    { $ref: '#/components/schemas/JsonRpcMessage' },
    { type: 'array', items: { $ref: '#/components/schemas/JsonRpcMessage' }, maxItems: 1, description: 'A batch of messages: one at most' },
  ]);
  const message = doc.components.schemas.JsonRpcMessage;
  t.strictSame(
    message.anyOf.map((m: { required: string[] }) => m.required),
    [
      ['jsonrpc', 'id', 'method'],
      ['jsonrpc', 'method'],
      ['jsonrpc', 'id', 'result'],
      ['jsonrpc', 'error'],
    ],
  );
  t.match(message.anyOf[0].properties.params, {
    type: 'object',
    propertyNames: { not: { const: '__proto__' } },
    additionalProperties: { $ref: '#/components/schemas/JsonValue' },
  });
  t.match(resolved(doc, op.responses['406'].content['application/json'].schema), { required: ['jsonrpc', 'error', 'id'] });

  const both = { Accept: 'application/json, text/event-stream' };
  const noMethod = await e2e.ws.api.post('/mcp', { jsonrpc: '2.0' }, both);
  t.equal(noMethod.status, 400, 'a message without method, result or error is not JSON-RPC');
  t.strictSame(noMethod.body, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' }, id: null });
  const jsonOnly = await e2e.ws.api.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { Accept: 'application/json' });
  t.equal(jsonOnly.status, 406);
  t.strictSame(jsonOnly.body, {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' },
    id: null,
  });
  const unknown = await e2e.ws.api.post('/mcp', { jsonrpc: '2.0', id: 'a', method: 'no/such/method' }, both);
  t.equal(unknown.status, 200, 'an unknown method is a JSON-RPC error in a 200');
  t.strictSame(unknown.body, { jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'Method not found' } });
  const notification = await e2e.ws.api.post('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, both);
  t.equal(notification.status, 202);
  t.equal(notification.text, '');
  const batch = await e2e.ws.api.post('/mcp', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], both);
  t.strictSame(batch.body, { result: {}, jsonrpc: '2.0', id: 1 }, 'a batch of one is answered as its one message (the SDK)');
  const version = await e2e.ws.api.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...both, 'Mcp-Protocol-Version': '1999-01-01' });
  t.equal(version.status, 400);
  t.match(version.body, { jsonrpc: '2.0', error: { code: -32000, message: /Unsupported protocol version/ }, id: null });
  t.ok(op.parameters.find((p: { name: string }) => p.name === 'Mcp-Protocol-Version').schema.enum.includes('2025-06-18'));
});
