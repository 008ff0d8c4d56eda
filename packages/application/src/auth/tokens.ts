import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ID_PREFIX } from '@support/domain';

/**
 * A key is `sk_<environment>_<ULID>_<secret>`: the ULID names the stored key record, the
 * 256-bit secret proves possession. Only the SHA-256 of the whole key is stored; a key this
 * random needs no slow hash.
 */
const TOKEN = /^sk_(live|test)_([0-9A-HJKMNP-TV-Z]{26})_([A-Za-z0-9_-]{43})$/;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const newToken = (keyId: string, environment: 'live' | 'test'): string =>
  `sk_${environment}_${keyId.slice(ID_PREFIX.apiKey.length)}_${randomBytes(32).toString('base64url')}`;

/** The key id a well-formed token names, or null for anything malformed. */
export const keyIdOf = (token: string): string | null => {
  const m = TOKEN.exec(token);
  return m ? ID_PREFIX.apiKey + m[2] : null;
};

const DUMMY = hashToken('sk_live_00000000000000000000000000_' + 'x'.repeat(43));

/** Constant-time comparison of the token's hash with the stored one (or a dummy, so misses take as long). */
export const tokenMatches = (token: string, storedHash: string | null): boolean => {
  const expected = Buffer.from(storedHash ?? DUMMY, 'hex');
  const actual = Buffer.from(hashToken(token), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual) && storedHash !== null;
};
