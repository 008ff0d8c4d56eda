import { terms } from '../knowledge/text';

/** A message leaning on what came before: short, or opening with "and…", or pointing back ("that", "it"). */
const LEANS_BACK = /^(?:and|but|also|so|then|ok(?:ay)?|what about|how about|same for|in that case)\b/i;
const POINTS_BACK = /\b(?:it|its|that|this|they|them|those|these|there|one|ones)\b/i;

/** A short message pointing back at something said before it ("how long does it last?"). */
export const pointsBack = (message: string): boolean => terms(message).length <= 6 && POINTS_BACK.test(message);

/**
 * The text to search for a customer's message: the message itself, or, when it only makes
 * sense after the customer's previous message ("and in London?", "will that delete my
 * scenes?"), the two together, so the follow-up is looked up in the conversation's subject.
 */
export const followUpQuery = (message: string, previousCustomerMessage: string | null): string => {
  if (!previousCustomerMessage) return message;
  const own = terms(message).length;
  const leaning = own <= 3 || LEANS_BACK.test(message.trim()) || pointsBack(message);
  return leaning ? `${previousCustomerMessage}\n${message}` : message;
};
