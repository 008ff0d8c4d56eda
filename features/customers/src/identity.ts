/**
 * Cross-channel dedup keys. Two customers are the same person when any normalised
 * identity matches: email case-insensitively after NFKC, phone by its digits, external_id exactly.
 */
export type IdentityKind = 'external_id' | 'email' | 'phone';

/** The order in which a match is looked for: the caller's own id is the strongest signal. */
export const IDENTITY_KINDS: readonly IdentityKind[] = ['external_id', 'email', 'phone'];

export const normaliseIdentity = (kind: IdentityKind, value: string): string => {
  switch (kind) {
    case 'email':
      // NFKC then lower case: the Kelvin sign (U+212A) and "K" are one address, as are full-width letters.
      return value.normalize('NFKC').trim().toLowerCase();
    case 'phone':
      return value
        .trim()
        .replace(/[^\d+]/g, '')
        .replace(/(?!^)\+/g, '');
    case 'external_id':
      return value;
  }
};

export interface Identities {
  email?: string | null;
  phone?: string | null;
  external_id?: string | null;
}

/** The normalised identities present in `input`, strongest first. */
export const identitiesOf = (input: Identities): { kind: IdentityKind; value: string }[] =>
  IDENTITY_KINDS.flatMap((kind) => {
    const raw = input[kind];
    if (raw === undefined || raw === null) return [];
    const value = normaliseIdentity(kind, raw);
    return value === '' ? [] : [{ kind, value }];
  });
