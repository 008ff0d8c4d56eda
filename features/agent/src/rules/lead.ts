export interface Lead {
  email: string | null;
  phone: string | null;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/** A run of digits with the usual separators, optionally starting with +. */
const PHONE = /(?<![\w+(])[+(]?\d[\d\s().-]{5,}\d(?!\w)/g;

/**
 * Contact details in a customer's message: the first e-mail address, and the first phone
 * number (9 to 15 digits, so order numbers and dates are not taken for phones). Null when the
 * message has neither.
 */
/** The message without its e-mail addresses and phone numbers: they are contact details, not words of the question. */
export const withoutContactDetails = (message: string): string =>
  message.replace(new RegExp(EMAIL.source, 'g'), ' ').replace(PHONE, (m) => {
    const digits = m.replace(/\D/g, '').length;
    return digits >= 9 && digits <= 15 ? ' ' : m;
  });

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
