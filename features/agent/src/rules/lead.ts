export interface Lead {
  email: string | null;
  phone: string | null;
}

/** An address starts where a run of its characters starts: tried at every letter of a long word, it took time quadratic in the word. */
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/** A run of digits with the usual separators, optionally starting with +. */
const PHONE = /(?<![\w+(])[+(]?\d[\d\s().-]{5,}\d(?!\w)/g;

/** What introduces contact details ("my email is", "reach me at"): it says nothing of the question either. */
const LEAD_IN = String.raw`(?:(?:my|our)\s+(?:e-?mail(?:\s+address)?|(?:phone|mobile|cell)(?:\s+number)?|number)\s+is|(?:you\s+can\s+)?(?:reach|contact|e-?mail|call|text)\s+(?:me|us)\s+(?:at|on))\s*`;

const EMAIL_WITH_LEAD_IN = new RegExp(`(?:${LEAD_IN})?${EMAIL.source}`, 'gi');
const PHONE_WITH_LEAD_IN = new RegExp(`(${LEAD_IN})?(${PHONE.source})`, 'gi');

/**
 * The message without its e-mail addresses and phone numbers, and the words that introduce
 * them: they are contact details, not words of the question ("hello, my email is … and I want
 * to know about Weather Skip" is about Weather Skip, and no nearer to a request to write something).
 */
export const withoutContactDetails = (message: string): string =>
  message.replace(EMAIL_WITH_LEAD_IN, ' ').replace(PHONE_WITH_LEAD_IN, (m, _lead, phone: string) => {
    const digits = phone.replace(/\D/g, '').length;
    return digits >= 9 && digits <= 15 ? ' ' : m;
  });

/**
 * Contact details in a customer's message: the first e-mail address, and the first phone
 * number (9 to 15 digits, so order numbers and dates are not taken for phones). Null when the
 * message has neither.
 */
export const findLead = (message: string): Lead | null => {
  const email = EMAIL.exec(message)?.[0] ?? null;
  const withoutEmail = email ? message.replace(email, ' ') : message;
  let phone: string | null = null;
  for (const m of withoutEmail.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '').length;
    if (digits >= 9 && digits <= 15) {
      phone = m[0].trim();
      break;
    }
  }
  return email || phone ? { email, phone } : null;
};
