import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

export const TagCreated = eventCodec(
  'tag.created',
  t.type({
    id: t.string,
    workspace_id: t.string,
    name: t.string,
    color: nullable(t.string),
    is_active: t.boolean,
  }),
);
export const TagChanges = t.partial({ name: t.string, color: nullable(t.string), is_active: t.boolean });
export type TagChanges = t.TypeOf<typeof TagChanges>;
export const TagUpdated = eventCodec('tag.updated', t.type({ id: t.string, changes: TagChanges }));
export const TagDeleted = eventCodec('tag.deleted', t.type({ id: t.string }));

export const TagEvent = t.union([TagCreated, TagUpdated, TagDeleted]);
export type TagEvent = t.TypeOf<typeof TagEvent>;
