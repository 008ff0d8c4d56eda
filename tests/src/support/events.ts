import { randomUUID } from 'node:crypto';
import type { MessageData } from '@support/conversations';
import type { NewEvent } from '@support/eventstore';

/** Domain events as the command side writes them, for tests that append to the log directly (workspace ws_1). */
export const ev = (type: string, data: unknown, at = '2026-01-01T00:00:00.000Z'): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: { workspace_id: 'ws_1', actor: 'key_1', request_id: null, occurred_at: at },
});

export const customerCreated = (id: string, email = `${id}@x.io`) =>
  ev('customer.created', { id, workspace_id: 'ws_1', email, phone: null, name: null, external_id: null, metadata: {}, status: 'active', tags: [] });

export const tagCreated = (id: string, name = id) => ev('tag.created', { id, workspace_id: 'ws_1', name, color: null, is_active: true });

/** A `message.created` payload: an agent's public API message in conv_1, customer cus_1 (ws_1); `over` changes fields. */
export const messageData = (id: string, over: Partial<MessageData> = {}): MessageData => ({
  id,
  conversation_id: 'conv_1',
  workspace_id: 'ws_1',
  customer_id: 'cus_1',
  ticket_id: null,
  sender_type: 'agent',
  sender_id: null,
  content: 'Hello',
  visibility: 'public',
  channel: 'api',
  external_id: null,
  attachments: [],
  channel_metadata: {},
  client_message_id: null,
  is_read: false,
  ...over,
});
