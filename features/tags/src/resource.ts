import * as t from 'io-ts';
import { bool, EXAMPLE_AT, EXAMPLE_ID, literal, nullable, str, struct, timestamp } from '@support/http';
import type { TagDocument } from './projection';

export const TagResource = struct(
  {
    object: literal('tag'),
    id: str(),
    name: str(),
    color: nullable(str()),
    is_active: bool(),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  {},
  {
    title: 'tag',
    example: {
      object: 'tag',
      id: EXAMPLE_ID.tag,
      name: 'billing',
      color: '#2f80ed',
      is_active: true,
      created_at: EXAMPLE_AT.created,
      updated_at: EXAMPLE_AT.created,
    },
  },
);
export type TagResource = t.TypeOf<typeof TagResource>;

export const toTag = (d: TagDocument): TagResource => ({
  object: 'tag',
  id: d.id,
  name: d.name,
  color: d.color ?? null,
  is_active: d.is_active,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
