import * as E from 'fp-ts/Either';
import { changedFields, Decider, DomainError, fail, uniqueTags } from '@support/domain';
import { CustomerChanges, CustomerEvent } from './events';
import { identitiesOf, normaliseIdentity } from './identity';

type Created = Extract<CustomerEvent, { type: 'customer.created' }>['data'];
export type CustomerState = { exists: false } | ({ exists: true } & Created);

export type CustomerCommand =
  | {
      type: 'create';
      id: string;
      workspace_id: string;
      email?: string;
      phone?: string;
      name?: string;
      external_id?: string;
      metadata?: Record<string, unknown>;
    }
  | { type: 'update'; changes: CustomerChanges }
  /**
   * Contact details the agent found in a message: `captured` is what was found, `changes` what
   * this customer may take of it (a value another customer holds stays theirs).
   */
  | {
      type: 'capture_lead';
      conversation_id: string;
      captured: { email: string | null; phone: string | null };
      changes: Pick<CustomerChanges, 'email' | 'phone'>;
    };

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const checkContact = (c: { email?: string; phone?: string }): E.Either<DomainError, void> => {
  if (c.email !== undefined && !EMAIL.test(c.email.trim())) return fail('validation', `email "${c.email}" is not an e-mail address`);
  if (c.phone !== undefined && !/\d/.test(normaliseIdentity('phone', c.phone))) return fail('validation', `phone "${c.phone}" has no digits`);
  return E.right(undefined);
};

export const customerDecider: Decider<CustomerCommand, CustomerEvent, CustomerState> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case 'create': {
        if (state.exists) return fail('conflict', `customer ${command.id} already exists`);
        if (identitiesOf(command).length === 0) return fail('validation', 'at least one of email, phone or external_id is required');
        const invalid = checkContact(command);
        if (E.isLeft(invalid)) return invalid;
        return E.right([
          {
            type: 'customer.created',
            data: {
              id: command.id,
              workspace_id: command.workspace_id,
              email: command.email?.trim() ?? null,
              phone: command.phone?.trim() ?? null,
              name: command.name ?? null,
              external_id: command.external_id ?? null,
              metadata: command.metadata ?? {},
              status: 'active',
              tags: [],
            },
          },
        ]);
      }
      case 'update': {
        if (!state.exists) return fail('not_found', 'customer not found');
        const invalid = checkContact(command.changes);
        if (E.isLeft(invalid)) return invalid;
        const { email, phone, tags } = command.changes;
        const requested: CustomerChanges = {
          ...command.changes,
          ...(email !== undefined ? { email: email.trim() } : {}),
          ...(phone !== undefined ? { phone: phone.trim() } : {}),
          ...(tags !== undefined ? { tags: uniqueTags(tags) } : {}),
        };
        const changes = changedFields(state, requested as Partial<Created>) as CustomerChanges;
        return E.right(Object.keys(changes).length ? [{ type: 'customer.updated', data: { id: state.id, changes } }] : []);
      }
      case 'capture_lead': {
        if (!state.exists) return fail('not_found', 'customer not found');
        const invalid = checkContact(command.changes);
        if (E.isLeft(invalid)) return invalid;
        const changes = changedFields(state, command.changes as Partial<Created>) as CustomerChanges;
        const { email, phone } = command.captured;
        return E.right([
          ...(Object.keys(changes).length ? [{ type: 'customer.updated' as const, data: { id: state.id, changes } }] : []),
          { type: 'lead.captured', data: { id: state.id, conversation_id: command.conversation_id, email, phone } },
        ]);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'customer.created':
        return { exists: true, ...event.data };
      case 'customer.updated':
        return state.exists ? { ...state, ...event.data.changes } : state;
      case 'lead.captured':
        return state;
    }
  },
};
