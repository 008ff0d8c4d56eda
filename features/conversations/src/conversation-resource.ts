import * as t from 'io-ts';
import { anyJson, arrayOf, bool, jsonObject, int, literal, nullable, oneOf, str, struct } from '@support/http/codec';
import { EXAMPLE_AT, EXAMPLE_ID, timestamp } from '@support/http/resources';
import { CHANNELS, PRIORITIES } from './events';
import type { ConversationDocument } from './conversation-projection';

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
  {
    title: 'conversation',
    example: {
      object: 'conversation',
      id: EXAMPLE_ID.conversation,
      status: 'open',
      channel: 'api',
      channel_id: null,
      customer_id: EXAMPLE_ID.customer,
      customer_name: 'Ada Moreau',
      customer_email: 'ada.moreau@example.com',
      assignee: 'ai',
      priority: 'normal',
      tags: ['billing'],
      external_id: null,
      is_pinned: false,
      resolution_type: null,
      message_count: 3,
      custom_action_memory: null,
      metadata: { order_id: 'ORD-20931' },
      resolved_at: null,
      created_at: EXAMPLE_AT.created,
      updated_at: EXAMPLE_AT.updated,
    },
  },
);
export type ConversationResource = t.TypeOf<typeof ConversationResource>;

export const toConversation = (d: ConversationDocument): ConversationResource => ({
  object: 'conversation',
  id: d.id,
  status: d.status,
  channel: d.channel,
  channel_id: d.channel_id ?? null,
  customer_id: d.customer_id ?? null,
  customer_name: d.customer_name ?? null,
  customer_email: d.customer_email ?? null,
  assignee: d.assignee ?? null,
  priority: d.priority,
  tags: d.tags,
  external_id: d.external_id ?? null,
  is_pinned: !!d.is_pinned,
  resolution_type: d.resolution_type ?? null,
  message_count: d.message_count ?? 0,
  custom_action_memory: d.custom_action_memory ?? null,
  metadata: d.metadata ?? {},
  resolved_at: d.resolved_at ?? null,
  created_at: d.created_at,
  updated_at: d.updated_at,
});
