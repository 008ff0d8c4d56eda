/** Lowercase, accents removed, every run of non-letters/digits a single space. */
const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** A plural's endings: "chargeback" is meant by "chargebacks", "refund" by "refunds". */
const PLURAL_ENDINGS = ['', 's', 'es'];

/**
 * The first escalation keyword the message contains as whole words, ignoring case and accents
 * ("Humain" matches "humain", "human" does not match "humane"; a keyword of several words
 * matches them in sequence), its last word also in the plural ("chargebacks"). Null when none does.
 */
export const matchKeyword = (message: string, keywords: readonly string[]): string | null => {
  const text = ` ${fold(message)} `;
  for (const keyword of keywords) {
    const folded = fold(keyword);
    if (folded !== '' && PLURAL_ENDINGS.some((ending) => text.includes(` ${folded}${ending} `))) return keyword;
  }
  return null;
};
