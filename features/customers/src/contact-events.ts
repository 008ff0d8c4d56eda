/**
 * What the customers read model reads of the conversations feature's events: who a conversation
 * or a message is about, for the contact counters. The conversations feature builds on this one
 * (it creates customers), so the shapes are stated here and that feature checks, at compile
 * time, that its events still have them (features/conversations/src/manifest.ts).
 */
export type ContactEvent =
  | { type: 'conversation.created'; data: { customer_id: string | null } }
  | { type: 'conversation.updated'; data: { changes: { customer_id?: string | null } } }
  | { type: 'message.created'; data: { customer_id: string | null; sender_type: string } };
