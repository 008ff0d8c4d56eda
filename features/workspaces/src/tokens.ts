import { hash, randomBytes } from 'node:crypto';
import { ID_PREFIX } from '@support/domain';

/**
 * A key is `sk_<environment>_<ULID>_<secret>`: the ULID names the stored key record, the
 * 256-bit secret proves possession. Only the SHA-256 of the whole key is stored; a key this
 * random needs no slow hash.
 */
const TOKEN = /^sk_(live|test)_([0-9A-HJKMNP-TV-Z]{26})_([A-Za-z0-9_-]{43})$/;

// crypto.hash: the one-shot form, without a Hash object per call (each key-cache miss hashes).
export const hashToken = (token: string): Buffer => hash('sha256', token, 'buffer');

export const newToken = (keyId: string, environment: 'live' | 'test'): string =>
  `sk_${environment}_${keyId.slice(ID_PREFIX.apiKey.length)}_${randomBytes(32).toString('base64url')}`;

/** The key id a well-formed token names, or null for anything malformed. */
export const keyIdOf = (token: string): string | null => {
  const m = TOKEN.exec(token);
  return m ? ID_PREFIX.apiKey + m[2] : null;
};

/** Compared against when a token names no stored key, so a miss costs what a hit does. */
export const DUMMY_HASH = hashToken('sk_live_00000000000000000000000000_' + 'x'.repeat(43)).toString('hex');
