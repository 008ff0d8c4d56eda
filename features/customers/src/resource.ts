import * as t from 'io-ts';
import { JsonView } from '@support/application';
import { arrayOf, jsonObject, int, literal, nullable, oneOf, oneOfRequired, PHONE_SCHEMA, str, struct, withSchema } from '@support/http/codec';
import { EXAMPLE_AT, EXAMPLE_ID, timestamp } from '@support/http/resources';
import { CUSTOMER_STATUSES } from './events';
import type { CustomerDocument } from './projection';

/** Spec 2.4, plus `metadata` (accepted on create, so readable) and `updated_at`. */
export const CustomerResource = struct(
  {
    object: literal('customer'),
    id: str(),
    email: nullable(str()),
    phone: nullable(str()),
    name: nullable(str()),
    avatar_url: nullable(str()),
    status: oneOf(CUSTOMER_STATUSES),
    tags: arrayOf(str()),
    external_id: nullable(str()),
    metadata: jsonObject(),
    conversation_count: int({ min: 0 }),
    first_contact_at: nullable(timestamp()),
    last_contact_at: nullable(timestamp()),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  {},
  {
    title: 'customer',
    example: {
      object: 'customer',
      id: EXAMPLE_ID.customer,
      email: 'ada.moreau@example.com',
      phone: '+33 6 12 34 56 78',
      name: 'Ada Moreau',
      avatar_url: null,
      status: 'active',
      tags: ['vip'],
      external_id: 'crm-48213',
      metadata: { plan: 'family', signup_source: 'ios' },
      conversation_count: 2,
      first_contact_at: EXAMPLE_AT.created,
      last_contact_at: EXAMPLE_AT.updated,
      created_at: EXAMPLE_AT.created,
      updated_at: EXAMPLE_AT.updated,
    },
  },
);
export type CustomerResource = t.TypeOf<typeof CustomerResource>;

export const toCustomer = (d: CustomerDocument): CustomerResource => ({
  object: 'customer',
  id: d.id,
  email: d.email,
  phone: d.phone,
  name: d.name,
  // Defaults for documents an older projection wrote without these fields.
  avatar_url: d.avatar_url ?? null,
  status: d.status,
  tags: d.tags,
  external_id: d.external_id,
  metadata: d.metadata ?? {},
  conversation_count: d.conversation_count ?? 0,
  first_contact_at: d.first_contact_at ?? null,
  last_contact_at: d.last_contact_at ?? null,
  created_at: d.created_at,
  updated_at: d.updated_at,
});

/** Customers as the JSON of their resource, remembered per stored text (GET by id and lists). */
export const customerJson = new JsonView<CustomerDocument>(toCustomer);

/** Spec 2.5; it must carry an identity (email, phone or external_id) to create or match a customer. */
export const customerInput = withSchema(
  struct(
    {},
    {
      email: str({ min: 1, max: 320, format: 'email' }),
      phone: withSchema(str({ min: 1, max: 64 }), PHONE_SCHEMA),
      name: str({ max: 255 }),
      external_id: str({ min: 1, max: 255 }),
    },
    {
      title: 'customer_input',
      example: { email: 'ada.moreau@example.com', name: 'Ada Moreau', external_id: 'crm-48213' },
    },
  ),
  oneOfRequired(['email', 'phone', 'external_id']),
);
