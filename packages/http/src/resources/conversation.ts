import * as t from 'io-ts';
import { CHANNELS, PRIORITIES } from '@support/domain';
import type { ConversationDoc } from '@support/application';
import { anyJson, arrayOf, bool, jsonObject, int, literal, nullable, oneOf, str } from '../codec/primitives';
import { struct } from '../codec/struct';
import { timestamp } from './common';

/** Spec 2.2, plus `metadata` (accepted on create, so readable). */
export const ConversationResource = struct(
  {
    object: literal('conversation'),
    id: str(),
    status: oneOf(['open', 'closed'] as const),
    channel: oneOf(CHANNELS),
    channel_id: nullable(str()),
    customer_id: nullable(str()),
    customer_name: nullable(str()),
    customer_email: nullable(str()),
    assignee: nullable(str({ description: '`ai`, a user id, or null' })),
    priority: oneOf(PRIORITIES),
    tags: arrayOf(str()),
    external_id: nullable(str()),
    is_pinned: bool(),
    resolution_type: nullable(str()),
    message_count: int({ min: 0 }),
    custom_action_memory: anyJson(),
    metadata: jsonObject(),
    resolved_at: nullable(timestamp()),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  {},
  { title: 'conversation' },
);
export type ConversationResource = t.TypeOf<typeof ConversationResource>;

export const toConversation = (d: ConversationDoc): ConversationResource => ({
  object: 'conversation',
  id: d.id,
  status: d.status as ConversationResource['status'],
  channel: d.channel as ConversationResource['channel'],
  channel_id: (d.channel_id ?? null) as string | null,
  customer_id: (d.customer_id ?? null) as string | null,
  customer_name: (d.customer_name ?? null) as string | null,
  customer_email: (d.customer_email ?? null) as string | null,
  assignee: (d.assignee ?? null) as string | null,
  priority: d.priority as ConversationResource['priority'],
  tags: d.tags as string[],
  external_id: (d.external_id ?? null) as string | null,
  is_pinned: !!d.is_pinned,
  resolution_type: (d.resolution_type ?? null) as string | null,
  message_count: (d.message_count ?? 0) as number,
  custom_action_memory: d.custom_action_memory ?? null,
  metadata: (d.metadata ?? {}) as Record<string, unknown>,
  resolved_at: (d.resolved_at ?? null) as string | null,
  created_at: d.created_at as string,
  updated_at: d.updated_at as string,
});
