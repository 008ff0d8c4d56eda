import { terms } from '../knowledge/text';

/** A message leaning on what came before: short, or opening with "and…", or pointing back ("that", "it"). */
const LEANS_BACK = /^(?:and|but|also|so|then|ok(?:ay)?|what about|how about|same for|in that case)\b/i;
const POINTS_BACK = /\b(?:it|its|that|this|they|them|those|these|there|one|ones)\b/i;

/** A short message pointing back at something said before it ("how long does it last?"). */
export const pointsBack = (message: string): boolean => terms(message).length <= 6 && POINTS_BACK.test(message);

/** How many of the customer's earlier messages a follow-up may be read with. */
export const FOLLOW_UP_DEPTH = 2;

const leansBack = (message: string): boolean => terms(message).length <= 3 || LEANS_BACK.test(message.trim()) || pointsBack(message);

/**
 * The text to search for a customer's message: the message itself, or, when it only makes
 * sense after the customer's previous message ("and in London?", "will that delete my
 * scenes?"), the two together, so the follow-up is looked up in the conversation's subject.
 * When the previous message leaned back too ("I'm moving house, I need to stop the boxes" →
 * "will they start again on their own?" → "and will I get a heads-up first?"), the one before
 * it joins, up to FOLLOW_UP_DEPTH messages back. `earlier`: the customer's earlier messages,
 * oldest first.
 */
export const followUpQuery = (message: string, earlier: readonly string[]): string => {
  const chain = [message];
  for (let i = earlier.length - 1; i >= 0 && chain.length <= FOLLOW_UP_DEPTH && leansBack(chain[0]); i--) chain.unshift(earlier[i]);
  return chain.join('\n');
};
