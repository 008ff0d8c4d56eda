// The document's introduction and its error answers: the text of each status, and one real example of each.

/** Each error status an operation may answer, as the document describes it. */
export const ERRORS: Record<string, string> = {
  '400':
    'Invalid body or parameters: schema failures carry no code, and `details.fields` lists each field refused as `{field, code, message}` (code: required, unknown_field, invalid_type, invalid_value, invalid_format, invalid_characters, too_short, too_long, out_of_range, too_deep, invalid_structure); a rule beyond the schema is `validation_error`',
  '401': 'Missing, invalid, expired or revoked key (`unauthorized`)',
  '402': 'The workspace has no active plan (`PLAN_LIMIT_REACHED`)',
  '403': 'The key lacks a scope (`insufficient_scope`, details.required) or the plan has no API access (`forbidden`)',
  '404': 'Not found in this workspace (`not_found`)',
  '405': 'The path exists with other methods (`method_not_allowed`); see Allow',
  '408': 'The request (headers and body) did not arrive in time (`request_timeout`)',
  '409': 'Conflicting state (`conflict`)',
  '413': 'Body over 1 MiB (`payload_too_large`)',
  '415': 'A body that is not application/json, or an unknown Content-Encoding (`unsupported_media_type`)',
  '429': 'Rate limit exceeded (`rate_limited`); see Retry-After',
  '431': 'Request headers too large (`headers_too_large`)',
  '500': 'Internal error (`internal_error`, details.request_id)',
  '503':
    'The write **was saved**, but the read models have not caught up in time (`write_committed`: details.id and details.resource name it; Retry-After). Retry with the same Idempotency-Key (it answers the saved resource, never a second one) or GET the id',
};

/** The document's introduction; its "Errors" heading is where errors without an operation link to (doc-links.ts). */
export const DESCRIPTION = [
  'An omnichannel customer-support platform: customers, conversations and messages, tickets with SLA, a knowledge base, an AI agent (also an MCP server) and signed webhooks. Every write answers once the next read sees it; a POST with an `Idempotency-Key` never runs twice; every error is one JSON envelope.',
  '',
  '## Errors',
  '',
  'Every error answers `{"success": false, "error": {"message", "statusCode", "code", "details", "documentation_url"}}`. Match on the status first: schema failures (400) carry no `code`, and list each refused field in `details.fields`. `documentation_url` links to the operation\'s answer with that status on this page.',
  '',
  '| status | code | meaning |',
  '|---|---|---|',
  ...Object.entries({
    '400': 'validation_error',
    '401': 'unauthorized',
    '402': 'PLAN_LIMIT_REACHED',
    '403': 'insufficient_scope, forbidden, PLAN_LIMIT_REACHED',
    '404': 'not_found',
    '409': 'conflict',
    '429': 'rate_limited',
    '500': 'internal_error',
    '503': 'write_committed',
  }).map(([status, code]) => `| ${status} | ${code} | ${ERRORS[status].replace(/\|/g, '\\|')} |`),
].join('\n');

const DOCS = 'https://support.example.com/v1/docs#';
const failure = (statusCode: number, message: string, code: string | null, section: string | null, details?: object) => ({
  success: false,
  error: { message, statusCode, ...(code ? { code } : {}), ...(details ? { details } : {}), ...(section ? { documentation_url: `${DOCS}${section}` } : {}) },
});
/** One real answer per error status, as the service words it (shown by the reference page and generated clients). */
export const ERROR_EXAMPLES: Record<string, object> = {
  '400': failure(400, 'Invalid body: nam is not a known field', null, 'tag/customers/POST/customers.responses.400', {
    fields: [{ field: 'nam', code: 'unknown_field', message: 'is not a known field' }],
  }),
  '401': failure(401, 'Invalid API key: unknown, expired or revoked.', 'unauthorized', 'tag/customers/GET/customers.responses.401'),
  '402': failure(402, 'This workspace has no active plan.', 'PLAN_LIMIT_REACHED', 'tag/customers/GET/customers.responses.402'),
  '403': failure(403, 'This key lacks the scope customers:write.', 'insufficient_scope', 'tag/customers/POST/customers.responses.403', {
    required: ['customers:write'],
  }),
  '404': failure(404, "No such customer: 'cus_01JDQ5ASHBTBPZ44902DN3Z5SS'", 'not_found', 'tag/customers/GET/customers/%7Bid%7D.responses.404'),
  '405': failure(405, 'PUT is not allowed on /v1/customers; allowed: HEAD, GET, POST', 'method_not_allowed', 'description/errors'),
  // Answered by Node's HTTP server before the API sees the request: no link (server/serve.ts).
  '408': failure(408, 'The request (headers and body) did not arrive in time', 'request_timeout', null),
  '409': failure(
    409,
    'The AI agent is disabled for this workspace; enable it with PATCH /agent {"is_enabled": true}.',
    'conflict',
    'tag/agent/POST/agent/messages.responses.409',
  ),
  '413': failure(413, 'Request body too large (the limit is 1 MiB)', 'payload_too_large', 'tag/customers/POST/customers.responses.413'),
  '415': failure(415, 'Send the body as application/json', 'unsupported_media_type', 'tag/customers/POST/customers.responses.415'),
  '429': failure(429, 'Rate limit exceeded: retry in 1 second', 'rate_limited', 'tag/customers/GET/customers.responses.429'),
  '431': failure(431, 'The request headers are too large', 'headers_too_large', null),
  '500': failure(500, 'Internal server error. Quote the request id when reporting it.', 'internal_error', 'tag/customers/POST/customers.responses.500', {
    request_id: 'req_5f0c1d9e2b7a4c3f8e6d1a0b9c8d7e6f',
  }),
  '503': failure(
    503,
    'The customer cus_01JDQ5ASHBTBPZ44902DN3Z5SS was saved, but the read models have not caught up yet. Retry with the same Idempotency-Key, or GET it shortly.',
    'write_committed',
    'tag/customers/POST/customers.responses.503',
    { id: 'cus_01JDQ5ASHBTBPZ44902DN3Z5SS', resource: 'customer' },
  ),
};
