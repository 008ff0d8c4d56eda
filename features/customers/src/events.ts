import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

export const CUSTOMER_STATUSES = ['active', 'inactive', 'archived'] as const;
export const CustomerStatus = t.keyof({ active: null, inactive: null, archived: null });
export type CustomerStatus = t.TypeOf<typeof CustomerStatus>;

export const CustomerCreated = eventCodec(
  'customer.created',
  t.type({
    id: t.string,
    workspace_id: t.string,
    email: nullable(t.string),
    phone: nullable(t.string),
    name: nullable(t.string),
    external_id: nullable(t.string),
    metadata: t.UnknownRecord,
    status: CustomerStatus,
    tags: t.array(t.string),
  }),
);

export const CustomerChanges = t.partial({
  email: t.string,
  phone: t.string,
  name: t.string,
  status: CustomerStatus,
  tags: t.array(t.string),
});
export type CustomerChanges = t.TypeOf<typeof CustomerChanges>;

export const CustomerUpdated = eventCodec('customer.updated', t.type({ id: t.string, changes: CustomerChanges }));

/** The agent found contact details in a customer's message (spec 6.1 `lead.captured`). */
export const LeadCaptured = eventCodec(
  'lead.captured',
  t.type({ id: t.string, conversation_id: t.string, email: nullable(t.string), phone: nullable(t.string) }),
);

export const CustomerEvent = t.union([CustomerCreated, CustomerUpdated, LeadCaptured]);
export type CustomerEvent = t.TypeOf<typeof CustomerEvent>;
