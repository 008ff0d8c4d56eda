import t from 'tap';
import { client } from '../support/client';
import { serviceFixture } from '../support/fixture';

/** Behind a proxy (TRUST_PROXY=true) the service names itself as clients reach it: the forwarded protocol and host. */
const e2e = serviceFixture({ env: { TRUST_PROXY: 'true' }, tenant: false });

t.test('behind TRUST_PROXY, the OpenAPI document names the forwarded origin', async (t) => {
  const r = await client(e2e.svc.baseUrl).get('/openapi.json', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.com' });
  t.strictSame(r.body.servers, [{ url: 'https://api.example.com/v1', description: 'This service' }]);
  const direct = await client(e2e.svc.baseUrl).get('/openapi.json');
  t.strictSame(direct.body.servers, [{ url: e2e.svc.baseUrl, description: 'This service' }], 'without forwarded headers: its own origin');
});

t.test("behind TRUST_PROXY, an error's documentation_url is on the forwarded origin", async (t) => {
  const r = await client(e2e.svc.baseUrl).get('/customers', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.com' });
  t.equal(r.body.error.documentation_url, 'https://api.example.com/v1/docs#tag/customers/GET/customers.responses.401');
});
