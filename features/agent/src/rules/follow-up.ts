import { terms } from '../knowledge/text';
import { passageTerms } from '../knowledge/sentences';
import type { SearchHit } from '../knowledge/types';
import { holdsKind, kindsAsked } from '../responders/answer-type';

/** A message leaning on what came before: short, or opening with "and…", or pointing back ("that", "it"). */
const LEANS_BACK = /^(?:and|but|also|so|then|ok(?:ay)?|what about|how about|same for|in that case)\b/i;
const POINTS_BACK = /\b(?:it|its|that|this|they|them|their|theirs|those|these|there|one|ones|he|him|his|she|her|hers)\b/i;

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

/**
 * Whether a follow-up by its form alone ("what about the gate hours?", "and the pool?": it opens
 * like one, or is short, but points back at nothing) asks of a subject of its own. Read with the
 * message before it, its answer came from that message's subject (the locker's price again, an
 * outsider's trial): it is one when none of its own words are in the best passage found for the
 * two together, and one of them is in the best passage found for it alone. The tuning half's
 * follow-ups (eight of them looked up alone too) all lean on their subject, and none changes.
 */
export const asksOfItsOwn = (message: string, together: readonly SearchHit[], alone: readonly SearchHit[]): boolean => {
  const own = new Set(terms(message));
  const held = heldIn(own);
  // "and how quickly do you reply?" after the e-mail address: the subject's passage holds the time asked for in other words.
  const answered = together[0] !== undefined && kindsAsked(message).some((kind) => holdsKind(together[0].passage.text, kind));
  return own.size >= 2 && !answered && held(together[0]) === 0 && held(alone[0]) >= 1;
};

/** How many of `own` words a hit's passage holds (0 for none). */
export const heldIn =
  (own: ReadonlySet<string>) =>
  (hit: SearchHit | undefined): number =>
    hit ? [...passageTerms(hit.passage)].filter((w) => own.has(w)).length : 0;

/** At most this many words of substance make a question short enough to continue the subject before it without pointing back. */
const CONTINUING_TERMS = 6;

/** A question that may continue the subject before it without pointing back ("how long does the link stay valid?"). */
export const mayContinue = (message: string): boolean => !leansBack(message) && terms(message).length <= CONTINUING_TERMS;

/**
 * Whether a short question that does not point back continues the subject of the message before
 * it: "How do I reset my password?", then "how long does the link stay valid?" (an outsider's
 * broadband centre: searched alone, the data-retention article answered). It does when the best
 * passage found for the two together is of another article than the one found for it alone and
 * holds one of its words at least, and as many as that one: the subject's article speaks of "the
 * link", the other of "how long". A question of another subject ("how do I change my email?")
 * finds a passage holding more of its words alone.
 */
export const continuesSubject = (message: string, alone: readonly SearchHit[], together: readonly SearchHit[]): boolean => {
  const held = heldIn(new Set(terms(message)));
  const kept = held(together[0]);
  return together[0] !== undefined && together[0].passage.articleId !== alone[0]?.passage.articleId && kept >= 1 && kept >= held(alone[0]);
};

/**
 * A follow-up naming a circumstance of the question before it ("and on the shorter crossings?",
 * "and for kids?", "what about in winter?"): the same question asked again, not a subject of its own.
 */
const CIRCUMSTANCE =
  /^(?:(?:and|but|also|so|then|what about|how about)\s+)?(?:on|in|for|with|at|from|to|during|after|before|by|via|over|under|without|outside|inside)\b/i;

/**
 * The customer's own circumstance supposed otherwise ("and what if I'm in Ireland instead?", "what
 * if we live abroad?"): the question before it, asked again. Another thing done instead ("and if
 * I'd rather swap the date instead?") may be a subject of its own.
 */
const SUPPOSED = /^(?:(?:and|but|so)\s+)?(?:what|how about) if\s+(?:i|we)(?:['’]m|['’]re|\s+am|\s+are|\s+was|\s+were|\s+live|\s+have|\s+had)\b/i;

/** A follow-up that may ask of a subject of its own (asksOfItsOwn), whose words are then looked up alone too. */
export const mayAskOfItsOwn = (message: string): boolean =>
  !pointsBack(message) && !CIRCUMSTANCE.test(message.trim()) && !SUPPOSED.test(message.trim()) && new Set(terms(message)).size >= 2;
