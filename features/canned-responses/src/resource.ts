import * as t from 'io-ts';
import { arrayOf, EXAMPLE_AT, EXAMPLE_ID, int, literal, nullable, str, struct, timestamp } from '@support/http';
import type { CannedResponseDocument } from './projection';

/** Spec 2.11 plus `updated_at`: read-only, entered by the operator's import. */
export const CannedResponseResource = struct(
  {
    object: literal('canned_response'),
    id: str(),
    name: str(),
    content: str(),
    shortcut: nullable(str()),
    visibility: str({ description: 'As imported; `personal` when not given' }),
    set_status: nullable(str()),
    set_priority: nullable(str()),
    add_tags: arrayOf(str()),
    usage_count: int({ min: 0 }),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  {},
  {
    title: 'canned_response',
    example: {
      object: 'canned_response',
      id: EXAMPLE_ID.cannedResponse,
      name: 'Refund on its way',
      content: 'Good news: your refund was issued today and reaches your card within 5 business days.',
      shortcut: '/refund',
      visibility: 'shared',
      set_status: 'closed',
      set_priority: null,
      add_tags: ['billing'],
      usage_count: 42,
      created_at: EXAMPLE_AT.created,
      updated_at: EXAMPLE_AT.updated,
    },
  },
);
export type CannedResponseResource = t.TypeOf<typeof CannedResponseResource>;

export const toCannedResponse = (d: CannedResponseDocument): CannedResponseResource => ({
  object: 'canned_response',
  id: d.id,
  name: d.name,
  content: d.content,
  shortcut: d.shortcut ?? null,
  visibility: d.visibility,
  set_status: d.set_status ?? null,
  set_priority: d.set_priority ?? null,
  add_tags: d.add_tags ?? [],
  usage_count: d.usage_count ?? 0,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
