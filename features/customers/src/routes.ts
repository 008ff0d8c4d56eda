import { CUSTOMER_STATUSES } from './events';
import { CUSTOMERS } from './projection';
import { customersOf } from './read-model';
import { customerJson, CustomerResource, toCustomer } from './resource';
import {
  arrayOf,
  commandContext,
  DEFAULT_LIMIT,
  freeObject,
  idParams,
  JsonText,
  linksTo,
  listOf,
  listText,
  oneOf,
  oneOfRequired,
  pageParams,
  PHONE_SCHEMA,
  readBack,
  route,
  str,
  struct,
  withSchema,
} from '@support/http';

const email = str({ min: 1, max: 320, format: 'email' });
const phone = withSchema(str({ min: 1, max: 64 }), PHONE_SCHEMA);
const name = str({ max: 255 });
const tags = arrayOf(str({ min: 1, max: 100 }), { max: 100 });

export const customerRoutes = [
  route({
    method: 'get',
    path: '/customers',
    tag: 'customers',
    summary: 'List customers, newest first',
    scope: 'customers:read',
    links: linksTo(['GET /customers/:id', 'PATCH /customers/:id'], { id: '$response.body#/data/0/id' }),
    query: struct(
      {},
      { ...pageParams, status: oneOf(CUSTOMER_STATUSES), search: str({ max: 200, description: 'Case-insensitive match over name, email and phone' }) },
    ),
    response: { status: 200, codec: listOf(CustomerResource, 'customer'), description: 'A page of customers' },
    handler: async ({ app, principal, query }) => {
      const page = await customersOf(app).reads.findJson(
        principal.workspaceId,
        {
          where: query.status ? { status: query.status } : {},
          search: query.search ? { fields: CUSTOMERS.search, text: query.search } : undefined,
          startingAfter: query.starting_after,
          limit: query.limit ?? DEFAULT_LIMIT,
        },
        customerJson,
      );
      return { body: listText(page.items, page.hasMore) };
    },
  }),
  route({
    method: 'post',
    path: '/customers',
    tag: 'customers',
    scope: 'customers:write',
    summary: 'Create a customer, or return the existing one with the same email, phone or external_id',
    body: withSchema(
      struct(
        {},
        { email, phone, name, external_id: str({ min: 1, max: 255 }), metadata: freeObject('Free keys, kept as given') },
        { example: { email: 'ada.moreau@example.com', name: 'Ada Moreau', external_id: 'crm-48213', metadata: { plan: 'family' } } },
      ),
      oneOfRequired(['email', 'phone', 'external_id']),
    ),
    response: { status: 201, codec: CustomerResource, description: 'The new customer, or the existing match (same id)' },
    links: linksTo(['GET /customers/:id', 'PATCH /customers/:id'], { id: '$response.body#/id' }),
    handler: async ({ app, principal, body, requestId, idempotency }) => {
      const ctx = commandContext(principal, requestId, idempotency);
      const { id, position } = await customersOf(app).commands.createOrMatch(ctx, body);
      const doc = await readBack(app, position, () => customersOf(app).reads.get(principal.workspaceId, id), 'customer', id);
      return { body: toCustomer(doc) };
    },
  }),
  route({
    method: 'get',
    path: '/customers/:id',
    tag: 'customers',
    summary: 'Get a customer',
    scope: 'customers:read',
    params: idParams('customer'),
    response: { status: 200, codec: CustomerResource, description: 'The customer' },
    handler: async ({ app, principal, params }) => {
      return { body: new JsonText(await customersOf(app).reads.requireJson(principal.workspaceId, params.id, 'customer', customerJson)) };
    },
  }),
  route({
    method: 'patch',
    path: '/customers/:id',
    tag: 'customers',
    summary: 'Update a customer',
    scope: 'customers:write',
    params: idParams('customer'),
    body: struct({}, { email, phone, name, status: oneOf(CUSTOMER_STATUSES), tags }, { example: { name: 'Ada Moreau-Lind', tags: ['vip', 'beta'] } }),
    response: { status: 200, codec: CustomerResource, description: 'The updated customer' },
    handler: async ({ app, principal, params, body, requestId, idempotency }) => {
      const { position } = await customersOf(app).commands.update(commandContext(principal, requestId, idempotency), params.id, body);
      const doc = await readBack(app, position, () => customersOf(app).reads.get(principal.workspaceId, params.id), 'customer', params.id);
      return { body: toCustomer(doc) };
    },
  }),
];
