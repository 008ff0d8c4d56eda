/**
 * What contact details typed into a chat may change on the conversation's customer. A chat is
 * no proof of who writes it, so:
 * - `replace`: a customer this chat's own lead created: its details are the chat's to correct;
 * - `fill`: the customer the API client gave: the chat fills in what is missing, never replaces
 *   what the client (or anyone) stored ("update my email to …" is a request for a person);
 * - `none`: a customer who existed before and was found by the details: linked, never changed.
 */
export type LeadRight = 'replace' | 'fill' | 'none';

export const leadChanges = (
  current: { email: string | null; phone: string | null },
  contact: { email?: string; phone?: string },
  may: LeadRight,
): { email?: string; phone?: string } => {
  if (may === 'replace') return contact;
  if (may === 'none') return {};
  return {
    ...(contact.email !== undefined && current.email === null ? { email: contact.email } : {}),
    ...(contact.phone !== undefined && current.phone === null ? { phone: contact.phone } : {}),
  };
};
