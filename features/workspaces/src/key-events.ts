import * as t from 'io-ts';
import { eventCodec, nullable } from '@support/domain';

export const ApiKeyCreated = eventCodec(
  'api_key.created',
  t.type({
    id: t.string,
    workspace_id: t.string,
    name: t.string,
    environment: t.keyof({ live: null, test: null }),
    scopes: t.array(t.string),
    /** SHA-256 of the secret; the secret itself is never recorded. */
    key_hash: t.string,
    expires_at: nullable(t.string),
  }),
);
export const ApiKeyRevoked = eventCodec('api_key.revoked', t.type({ id: t.string }));

export const ApiKeyEvent = t.union([ApiKeyCreated, ApiKeyRevoked]);
export type ApiKeyEvent = t.TypeOf<typeof ApiKeyEvent>;
