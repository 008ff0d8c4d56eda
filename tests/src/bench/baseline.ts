import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { AddressInfo } from 'node:net';

/**
 * The yardstick: bare Koa answering a customer-sized (~400 byte) JSON object,
 * so the benchmark measures what the service adds on top of Koa itself.
 */
const resource = (email: string, name: string) => ({
  object: 'customer',
  id: 'cus_01M80MQ6VSWRNGY6FPC6J4VEDM',
  email,
  phone: null,
  name,
  avatar_url: null,
  status: 'active',
  tags: [],
  external_id: null,
  metadata: {},
  conversation_count: 0,
  first_contact_at: null,
  last_contact_at: null,
  created_at: '2026-11-22T03:27:41.947Z',
  updated_at: '2026-11-22T03:27:41.947Z',
});

const app = new Koa();
app.use(bodyParser());
app.use(async (ctx) => {
  if (ctx.path !== '/x') return;
  if (ctx.method === 'GET') ctx.body = resource('bench1@example.com', 'Bench 1');
  else if (ctx.method === 'POST') {
    const body = ctx.request.body as { email?: string; name?: string } | undefined;
    ctx.status = 201;
    ctx.body = resource(String(body?.email ?? ''), String(body?.name ?? ''));
  }
});

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
