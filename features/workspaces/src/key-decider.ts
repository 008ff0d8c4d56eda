import * as E from 'fp-ts/Either';
import { Decider, fail, isBlank, isScope } from '@support/domain';
import { ApiKeyEvent } from './key-events';

type Created = Extract<ApiKeyEvent, { type: 'api_key.created' }>['data'];
export type ApiKeyState = { exists: false } | ({ exists: true; revoked: boolean } & Created);

export type ApiKeyCommand = ({ type: 'create'; environment: string } & Omit<Created, 'environment'>) | { type: 'revoke' };

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  initialState: { exists: false },
  decide(command, state) {
    switch (command.type) {
      case 'create': {
        if (state.exists) return fail('conflict', `key ${command.id} already exists`);
        if (isBlank(command.name)) return fail('validation', 'name must not be empty');
        if (command.environment !== 'live' && command.environment !== 'test') return fail('validation', 'environment must be live or test');
        const unknown = command.scopes.filter((s) => !isScope(s));
        if (unknown.length) return fail('validation', `unknown scopes: ${unknown.join(', ')}`);
        if (command.scopes.length === 0) return fail('validation', 'a key needs at least one scope');
        if (command.expires_at !== null && Number.isNaN(Date.parse(command.expires_at))) return fail('validation', 'expires_at must be an ISO 8601 time');
        const { type: _type, ...data } = command;
        return E.right([{ type: 'api_key.created', data: { ...data, environment: command.environment, scopes: [...new Set(command.scopes)] } }]);
      }
      case 'revoke':
        if (!state.exists) return fail('not_found', 'key not found');
        // Revoking twice is a no-op, so an operator's retry is safe.
        return E.right(state.revoked ? [] : [{ type: 'api_key.revoked', data: { id: state.id } }]);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'api_key.created':
        return { exists: true, revoked: false, ...event.data };
      case 'api_key.revoked':
        return state.exists ? { ...state, revoked: true } : state;
    }
  },
};
