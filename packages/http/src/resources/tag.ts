import * as t from 'io-ts';
import type { TagDoc } from '@support/application';
import { bool, literal, nullable, str } from '../codec/primitives';
import { struct } from '../codec/struct';
import { timestamp } from './common';

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
  { title: 'tag' },
);
export type TagResource = t.TypeOf<typeof TagResource>;

export const toTag = (d: TagDoc): TagResource => ({
  object: 'tag',
  id: d.id,
  name: d.name,
  color: d.color ?? null,
  is_active: d.is_active,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
