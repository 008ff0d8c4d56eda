import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

/** Every field of the canned_response resource (spec 2.11) but `object`, `id` and `updated_at`. */
const fields = {
  name: t.string,
  content: t.string,
  shortcut: nullable(t.string),
  visibility: t.string,
  set_status: nullable(t.string),
  set_priority: nullable(t.string),
  add_tags: t.array(t.string),
  usage_count: t.number,
  created_at: t.string,
};

export const CannedResponseCreated = eventCodec('canned_response.created', t.type({ id: t.string, workspace_id: t.string, ...fields }));
export const CannedResponseChanges = t.partial(fields);
export type CannedResponseChanges = t.TypeOf<typeof CannedResponseChanges>;
export const CannedResponseUpdated = eventCodec('canned_response.updated', t.type({ id: t.string, changes: CannedResponseChanges }));

export const CannedResponseEvent = t.union([CannedResponseCreated, CannedResponseUpdated]);
export type CannedResponseEvent = t.TypeOf<typeof CannedResponseEvent>;
