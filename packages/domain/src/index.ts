import * as t from 'io-ts';
import { ApiKeyEvent } from './apikey/events';
import { ConversationEvent } from './conversation/events';
import { CustomerEvent } from './customer/events';
import { ReservationEvent } from './reservation/events';
import { TagEvent } from './tag/events';
import { WorkspaceEvent } from './workspace/events';

export * from './decider';
export * from './scopes';
export * from './plans';
export * from './ids';
export * from './workspace/events';
export * from './workspace/decider';
export * from './apikey/events';
export * from './apikey/decider';
export * from './customer/events';
export * from './customer/identity';
export * from './customer/decider';
export * from './tag/events';
export * from './tag/decider';
export * from './reservation/events';
export * from './reservation/decider';
export * from './conversation/events';
export * from './conversation/decider';

/** Every event the domain records: the schema an auditor replays against. */
export const AnyDomainEvent = t.union([...WorkspaceEvent.types, ...ApiKeyEvent.types, ...CustomerEvent.types, ...TagEvent.types, ...ReservationEvent.types, ...ConversationEvent.types]);
export type AnyDomainEvent = t.TypeOf<typeof AnyDomainEvent>;
